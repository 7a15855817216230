/**
 * `npm run bench site`: the public site's speed report (issue 4).
 *
 * 1. Starts the real server (as `npm start` does) on a port and data directory of its own, with the
 *    embedded database, so it never touches a running instance.
 * 2. Lighthouse (mobile, simulated throttling) for every public page: the four category scores,
 *    LCP and CLS.
 * 3. JavaScript per page (gzip bytes as our server sends them) and the home page's HTML + CSS in
 *    brotli bytes, against the budgets.
 * 4. Requests per second for one prerendered page from our server (node:http) and from nginx
 *    serving the same release directory as a plain static server, side by side with wrk, server
 *    and load generator on separate cores.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { PUBLIC_PAGES } from '#server/content/routes.ts';
import { adminHeaders, median, startCommand } from './shared';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PORT = Number(process.env.BENCH_PORT ?? 4490);
const NGINX_PORT = PORT + 1;
const BASE = `http://127.0.0.1:${PORT}`;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const ISLAND_JS_BUDGET = 75 * 1024;
const HOME_BROTLI_BUDGET = 14 * 1024;
const WRK_PAGE = '/about';
const WRK_DURATION = process.env.BENCH_WRK_DURATION ?? '5s';
const WRK_ROUNDS = Number(process.env.BENCH_WRK_ROUNDS ?? 5);
/** `BENCH_PAGES=/,/about` audits only those pages (with BENCH_WRK_ROUNDS=0: Lighthouse alone). */
const PAGES: readonly string[] = process.env.BENCH_PAGES ? process.env.BENCH_PAGES.split(',') : PUBLIC_PAGES;

const multiCore = os.cpus().length > 1;
/** Server on core 0, load generator on core 1 (so the two do not compete for one core), when there are two. */
const pin = (core: number, cmd: string, args: string[]): [string, string[]] =>
  multiCore && has('taskset') ? ['taskset', ['-c', String(core), cmd, ...args]] : [cmd, args];

function has(bin: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;
}

/** wrk and nginx from Debian when missing (only as root; otherwise that part is skipped). */
function ensureTools(): { wrk: boolean; nginx: boolean } {
  const nginxBin = fs.existsSync('/usr/sbin/nginx') || has('nginx');
  if ((!has('wrk') || !nginxBin) && process.getuid?.() === 0) {
    console.log('installing wrk and nginx with apt-get…');
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
    spawnSync('apt-get', ['install', '-y', '-qq', 'wrk', 'nginx'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  return { wrk: has('wrk'), nginx: fs.existsSync('/usr/sbin/nginx') || has('nginx') };
}

async function waitFor(url: string, timeoutMs = 180_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

async function startServer(): Promise<{ child: ChildProcess; releases: string }> {
  const dataDir = path.join(ROOT, '.bench-data');
  const releases = path.join(ROOT, '.releases-bench');
  fs.rmSync(dataDir, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    SITE_URL: BASE,
    DATA_DIR: dataDir,
    RELEASES_DIR: releases,
    ADMIN_PASSWORD: 'bench-admin-password',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
  delete env.DATABASE_URL; // always its own embedded database, never a shared one
  const [node, nodeArgs, startEnv] = startCommand(ROOT);
  const [cmd, args] = pin(0, node, nodeArgs);
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...env, ...startEnv }, stdio: ['ignore', 'ignore', 'inherit'] });
  await waitFor(`${BASE}/api/content/header/active`);
  await launch();
  return { child, releases };
}

/**
 * Launches the site as its owner does (Launch site in the back office), so the pages are measured
 * as visitors and search engines get them: without it every page is `noindex`, which Lighthouse's
 * SEO score counts against it.
 */
async function launch(): Promise<void> {
  const admin = await adminHeaders(BASE, { username: 'admin', password: 'bench-admin-password' });
  const res = await fetch(`${BASE}/api/admin/site-launch`, { method: 'PUT', headers: admin, body: JSON.stringify({ launched: true }) });
  if (!res.ok) throw new Error(`launching the site: ${res.status} ${await res.text()}`);
  for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
    const home = await fetch(`${BASE}/`);
    await home.arrayBuffer();
    if (!home.headers.get('x-robots-tag')) return;
  }
  throw new Error('the launched site was not published within 60 s');
}

/** Headers of our answer that nginx sends itself (or that differ by nature, as the entity tag). */
const OWN_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'content-type',
  'content-encoding',
  'etag',
  'transfer-encoding',
]);

/**
 * nginx serving the release as deploy/nginx/procurement-site.conf does (try_files, gzip_static,
 * no open-file cache: `current` moves on publish), with the same headers as our answer for the
 * page (security headers, CSP, Cache-Control, Vary), over plain http like our server.
 */
function startNginx(root: string, headers: Headers): { stop: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-nginx-'));
  const conf = path.join(dir, 'nginx.conf');
  const addHeaders = [...headers]
    .filter(([name]) => !OWN_HEADERS.has(name))
    .map(([name, value]) => `add_header ${name} "${value}" always;`)
    .join('\n      ');
  fs.writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${NGINX_PORT};
    root ${root};
    gzip_static on;
    etag on;
    location / {
      try_files $uri $uri.html $uri/index.html =404;
      ${addHeaders}
    }
  }
}
`,
  );
  const [cmd, args] = pin(0, fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx', ['-c', conf, '-p', dir]);
  const child = spawn(cmd, args, { stdio: 'ignore' });
  return {
    stop: () => {
      child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function wrk(url: string): number | null {
  const [cmd, args] = pin(1, 'wrk', ['-t1', '-c50', `-d${WRK_DURATION}`, '-H', 'Accept-Encoding: gzip', url]);
  const out = spawnSync(cmd, args, { encoding: 'utf8' });
  const m = /Requests\/sec:\s+([\d.]+)/.exec(out.stdout ?? '');
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out.stdout ?? '');
  if (non2xx) console.warn(`wrk ${url}: ${non2xx[1]} non-2xx responses`);
  return m ? Number(m[1]) : null;
}

interface PageResult {
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  cls: number;
  jsFiles: number;
  jsGzipBytes: number;
}

async function gzipBytes(url: string): Promise<number> {
  const res = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
  const body = await res.arrayBuffer();
  // fetch decodes the body; content-length is what went over the wire.
  return Number(res.headers.get('content-length') ?? body.byteLength);
}

async function lighthousePages(): Promise<PageResult[]> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
  const results: PageResult[] = [];
  try {
    for (const page of PAGES) {
      const audit = async () =>
        (await lighthouse(`${BASE}${page}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        }))!.lhr;
      let lhr = await audit();
      // Headless Chromium here fails a run now and then (no paint recorded): one more try, reported.
      if (lhr.runtimeError) {
        console.warn(`\nLighthouse ${page}: ${lhr.runtimeError.code}; running it again`);
        lhr = await audit();
      }
      const requests = (
        (lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string }[] })?.items ?? []
      ).filter((r) => r.resourceType === 'Script');
      let js = 0;
      for (const r of requests) js += await gzipBytes(r.url);
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      results.push({
        path: page,
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
        lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN),
        cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)),
        jsFiles: requests.length,
        jsGzipBytes: js,
      });
      process.stdout.write('.');
    }
  } finally {
    chrome.kill();
  }
  process.stdout.write('\n');
  return results;
}

async function homeBrotliBytes(): Promise<number> {
  const res = await fetch(`${BASE}/`, { headers: { 'accept-encoding': 'br' } });
  const html = await res.text();
  let total = Number(res.headers.get('content-length'));
  for (const m of html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)) {
    const css = await fetch(new URL(m[1]!, BASE), { headers: { 'accept-encoding': 'br' } });
    await css.arrayBuffer();
    total += Number(css.headers.get('content-length'));
  }
  return total;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

export async function run() {
  const tools = WRK_ROUNDS > 0 ? ensureTools() : { wrk: false, nginx: false };
  console.log(`starting the server on ${BASE} (own data directory, embedded database)…`);
  const { child, releases } = await startServer();
  try {
    const pages = await lighthousePages();
    console.log('\nLighthouse (mobile) and JavaScript per page');
    console.table(
      pages.map((p) => ({
        page: p.path,
        perf: p.performance,
        a11y: p.accessibility,
        'best pr.': p.bestPractices,
        seo: p.seo,
        'LCP ms': p.lcpMs,
        CLS: p.cls,
        'JS files': p.jsFiles,
        'JS gzip': kb(p.jsGzipBytes),
      })),
    );
    const home = await homeBrotliBytes();
    const islandMax = Math.max(...pages.map((p) => p.jsGzipBytes));
    const noJsPages = pages.filter((p) => p.path !== '/contact').every((p) => p.jsFiles === 0);
    console.log(`home HTML + CSS: ${kb(home)} brotli (budget ${kb(HOME_BROTLI_BUDGET)}) ${home <= HOME_BROTLI_BUDGET ? 'OK' : 'OVER'}`);
    console.log(`largest page JS: ${kb(islandMax)} gzip (budget ${kb(ISLAND_JS_BUDGET)}) ${islandMax <= ISLAND_JS_BUDGET ? 'OK' : 'OVER'}`);
    console.log(`pages without islands ship no JavaScript: ${noJsPages ? 'yes' : 'NO'}`);

    let throughput: { page: string; ours: number | null; nginx: number | null; ratio: number | null } | null = null;
    if (tools.wrk && tools.nginx) {
      const root = fs.realpathSync(path.join(releases, 'current', 'client'));
      const answer = await fetch(`${BASE}${WRK_PAGE}`, { headers: { 'accept-encoding': 'gzip' } });
      await answer.arrayBuffer();
      const nginx = startNginx(root, answer.headers);
      try {
        await waitFor(`http://127.0.0.1:${NGINX_PORT}${WRK_PAGE}`, 10_000);
        // Single runs here swing widely: alternate the two servers and compare the medians.
        // One discarded round each first: the pages' serving path is compiled by V8 after the
        // Lighthouse runs, and headless Chromium's processes may still be exiting.
        wrk(`${BASE}${WRK_PAGE}`);
        wrk(`http://127.0.0.1:${NGINX_PORT}${WRK_PAGE}`);
        const oursRuns: number[] = [];
        const theirRuns: number[] = [];
        for (let round = 0; round < WRK_ROUNDS; round++) {
          oursRuns.push(wrk(`${BASE}${WRK_PAGE}`) ?? NaN);
          theirRuns.push(wrk(`http://127.0.0.1:${NGINX_PORT}${WRK_PAGE}`) ?? NaN);
        }
        const middle = (xs: number[]) => (xs.some(Number.isNaN) ? null : median(xs));
        const ours = middle(oursRuns);
        const theirs = middle(theirRuns);
        console.log(`\nwrk rounds, node:http: ${oursRuns.map(Math.round).join(', ')}; nginx: ${theirRuns.map(Math.round).join(', ')}`);
        throughput = { page: WRK_PAGE, ours, nginx: theirs, ratio: ours && theirs ? Number((ours / theirs).toFixed(2)) : null };
      } finally {
        nginx.stop();
      }
      console.log(
        `\nRequests/s for ${WRK_PAGE}, median of ${WRK_ROUNDS} alternating rounds (gzip, 50 connections, ${WRK_DURATION} each, ${multiCore ? 'server on core 0, wrk on core 1' : 'one core'})`,
      );
      console.table([{ 'node:http': throughput.ours, nginx: throughput.nginx, 'node:http / nginx': throughput.ratio }]);
    } else {
      console.log(WRK_ROUNDS > 0 ? '\nwrk or nginx is missing (run as root to install them): throughput skipped' : '\nthroughput skipped');
    }
    return { pages, homeBrotliBytes: home, largestPageJsGzipBytes: islandMax, noJsOnStaticPages: noJsPages, throughput };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}
