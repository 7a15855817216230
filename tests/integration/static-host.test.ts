/**
 * The public pages on a static host in front of the product, as docs/deployment-static.md sets it
 * up: a publish calls the signed deploy hook; the host's build (`npm run build:static`, writing
 * outside the project) reads the published content from GET /api/deploy/snapshot with the deploy
 * token; nginx serves the built folder with the nginx-static.conf the build wrote and proxies
 * /api, /admin, /auth and /uploads to Node. And the two ways to make the public site (the release
 * the server renders on publish, and the static build) give the same site.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseAllHeaders, type Header } from '@netlify/headers-parser';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectedFiles } from '#server/content/routes.ts';
import { snapshotContent } from '#server/content/site-content.ts';
import { openDatabase } from '#server/db/client.ts';
import { contactSubmissions } from '#server/db/schema/index.ts';
import { createMailTransport } from '#server/mail/transport.ts';
import { releaseClientDir } from '#server/publish/releases.ts';
import type { Publisher } from '#server/publish/publisher.ts';
import { createPostgresDatabase } from './helpers/db';
import { SECURITY_HEADERS, ensureNginx, startNginx, type Nginx } from './helpers/nginx';
import { freePort } from './helpers/ports';
import { TEST_ADMIN, signIn, startTestServer, type TestServer } from './helpers/server';
import { SmtpSink, waitFor } from './helpers/smtp';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const { deliverDue, publishContent, startPublisher } = bundleApi;

/** Outside the project, as a host's build may put it. */
const OUT = path.join(os.tmpdir(), `static-host-${process.pid}`);
const CLIENT = path.join(OUT, 'client');
const RELEASES = `.releases-static-host-${process.pid}`;
const TOKEN = randomBytes(32).toString('base64url');
const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const ARTICLE = { slug: 'zebra-logistics', title: 'Zebra Logistics for Depot Buyers' };

let server: TestServer;
let publisher: Publisher;
let sink: SmtpSink;
let nginx: Nginx | undefined;
let hostUrl: string;
let rendered: string;
const hookCalls: { headers: http.IncomingHttpHeaders; raw: string }[] = [];
const hook = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (d) => (raw += d));
  req.on('end', () => {
    hookCalls.push({ headers: req.headers, raw });
    res.end('ok');
  });
});

/** `npm <args>` with `env` added; answers its output, or fails with its end. */
function runNpm(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`npm ${args.join(' ')} exited with ${code}: ${output.slice(-2000)}`)),
    );
  });
}

beforeAll(async () => {
  ensureNginx();
  sink = await SmtpSink.start();
  Object.assign(process.env, { RELEASES_DIR: RELEASES, DEPLOY_TOKEN: TOKEN, SMTP_URL: sink.url });
  resetEnvCache();
  server = await startTestServer({ trustProxy: true });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  publisher = await startPublisher({
    store: server.store,
    webhook: { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`, secret: SECRET, backoffMs: 30, maxAttempts: 3 },
    debounceMs: 20,
    pollMs: 0,
    ensureRelease: false,
  });
  // An editor publishes an article: the deploy hook is called.
  const cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
  const created = await server.request('/api/admin/insights', {
    method: 'POST',
    cookie,
    json: {
      ...ARTICLE,
      category: 'market_analysis',
      excerpt: 'Striped pallets and the buyers who track them.',
      content: 'Zebra logistics: how depot buyers track striped pallets from the dock to the shelf.',
      readMinutes: 3,
      authorName: 'Jane Doe',
      authorTitle: 'Principal',
      tags: 'logistics',
      isPublished: true,
    },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  await waitFor(() => hookCalls.length > 0, 20_000);
  // The release the server itself renders of the same content: what the static build must equal.
  rendered = releaseClientDir((await publishContent(server.store, await snapshotContent(server.db))).id);
  const port = await freePort();
  // The host's build: the content from the origin, with the deploy token only.
  await runNpm(['run', 'build:static'], {
    STATIC_OUT_DIR: OUT,
    CONTENT_SNAPSHOT: `${server.url}/api/deploy/snapshot`,
    DEPLOY_TOKEN: TOKEN,
    STATIC_LISTEN: `127.0.0.1:${port}`,
    DATABASE_URL: '',
  });
  nginx = startNginx(await fs.mkdtemp(path.join(os.tmpdir(), 'static-nginx-')), path.join(OUT, 'nginx-static.conf'));
  hostUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${hostUrl}/`).catch(() => undefined);
    if (up?.status === 200) break;
    if (i === 100) throw new Error(`nginx did not start: ${nginx.errors()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 600_000);

afterAll(async () => {
  nginx?.stop();
  await publisher?.stop();
  await server?.close();
  await sink?.stop();
  hook.close();
  for (const name of ['RELEASES_DIR', 'DEPLOY_TOKEN', 'SMTP_URL']) delete process.env[name];
  resetEnvCache();
  await Promise.all([RELEASES, OUT].map((p) => fs.rm(p, { recursive: true, force: true })));
});

/** Every file of a built folder, as URL paths (`/about.html`), without the compressed copies. */
async function filesOf(dir: string, pattern = /./): Promise<string[]> {
  const all = (await fs.readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  return all
    .map((e) => `/${path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')}`)
    .filter((f) => pattern.test(f) && !/\.(br|gz)$/.test(f))
    .sort();
}

/** Whether a host serves a file of the folder at its own URL: not the hosts' files, not a not-found page. */
const servedAsPage = (file: string) => !/^\/(_headers|_redirects|_routes\.json|vercel\.json)$/.test(file) && !/(^|\/)404\.html$/.test(file);

/** The URL a host serves a file at: a page at its clean URL. */
const urlOf = (file: string) => (file === '/index.html' ? '/' : file.replace(/\.html$/, ''));

/** The site's address: what a visitor's browser at the host sends as its Origin (the host serves SITE_URL). */
const siteUrl = () => process.env.SITE_URL!;

/** The headers a static host must send as the app does. */
const SAME = ['content-type', 'cache-control', 'content-security-policy', 'x-robots-tag', ...SECURITY_HEADERS];
const picked = (headers: Headers) => Object.fromEntries(SAME.map((h) => [h, headers.get(h)]));
/** The app's answer over https (behind its proxy): what a visitor of the site gets. */
const fromApp = (url: string) => fetch(server.url + url, { headers: { 'x-forwarded-proto': 'https' }, redirect: 'manual' });

describe('[PUBLISH][STATIC] the deploy snapshot', () => {
  it('answers 401 without the deploy token or with another, and is never kept by a cache', async () => {
    for (const authorization of [undefined, 'Bearer nope', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await fetch(`${server.url}/api/deploy/snapshot`, { headers: authorization ? { authorization } : {} });
      expect(res.status, authorization).toBe(401);
      expect(await res.json()).toEqual({ message: 'A deploy token is required' });
    }
    const res = await fetch(`${server.url}/api/deploy/snapshot`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store, private');
    expect(res.headers.get('x-site-url')).toBe(process.env.SITE_URL);
    const { generatedAt, ...body } = (await res.json()) as { generatedAt: string; insights: { slug: string }[] };
    const { generatedAt: _, ...expected } = JSON.parse(JSON.stringify(await snapshotContent(server.db))) as typeof body & {
      generatedAt: string;
    };
    expect(body).toEqual(expected);
    expect(Date.parse(generatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(body.insights.map((i) => i.slug)).toContain(ARTICLE.slug);
  });

  it('a publish called the deploy hook with a Standard Webhooks signature', () => {
    const call = hookCalls[0]!;
    const verified = new Webhook(SECRET).verify(call.raw, call.headers as Record<string, string>) as { reason: string };
    expect(verified.reason).toBeTruthy();
    expect(() => new Webhook(SECRET).verify(call.raw.replace('}', ',"x":1}'), call.headers as Record<string, string>)).toThrow();
  });
});

describe('[PUBLISH][STATIC] the built folder behind nginx', { timeout: 120_000 }, () => {
  it('every page and file: 200 with the headers the app sends', async () => {
    const files = await filesOf(CLIENT);
    expect(files).toContain(`/insights/${ARTICLE.slug}.html`);
    let checked = 0;
    for (const file of files) {
      if (!servedAsPage(file)) continue;
      const url = urlOf(file);
      const [host, app] = await Promise.all([fetch(hostUrl + url), fromApp(url)]);
      expect([host.status, app.status], url).toEqual([200, 200]);
      expect(picked(host.headers), url).toEqual(picked(app.headers));
      expect(Buffer.from(await host.arrayBuffer()).equals(Buffer.from(await app.arrayBuffer())), url).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('a missing page: 404 with the not-found page and the headers the app sends with it', async () => {
    for (const url of ['/no-such-page', '/insights/no-such-article', '/404', '/_headers', '/_routes.json']) {
      const [host, app] = await Promise.all([fetch(hostUrl + url), fromApp(url)]);
      expect([host.status, app.status], url).toEqual([404, 404]);
      expect(picked(host.headers), url).toEqual(picked(app.headers));
      expect(await host.text(), url).toBe(await app.text());
    }
  });

  it('the contact form through the host stores the lead and mails staff', async () => {
    const res = await fetch(`${hostUrl}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: siteUrl() },
      body: JSON.stringify({
        name: 'Jane Buyer',
        email: 'jane@agency.gov',
        message: 'Forty striped pallets by June.',
        elapsedMs: 12_000,
        website: '',
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: number };
    const [row] = await server.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id));
    expect(row?.message).toBe('Forty striped pallets by June.');
    await deliverDue(server.db, createMailTransport(), { now: new Date(Date.now() + 60_000), batch: 50 });
    await sink.sync();
    expect(sink.received.some((m) => m.to.includes(process.env.CONTACT_NOTIFY_TO!) && m.raw.includes('Jane Buyer'))).toBe(true);
  });

  it('search through the host finds the article the build shows', async () => {
    const page = await fetch(`${hostUrl}/insights/${ARTICLE.slug}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(ARTICLE.title);
    const search = await fetch(`${hostUrl}/api/insights/search?q=zebra`);
    expect(search.status).toBe(200);
    const found = (await search.json()) as { total: number; results: { path: string }[] };
    expect(found.results.map((r) => r.path)).toContain(`/insights/${ARTICLE.slug}`);
  });

  it('sign-in and the back office come from the origin, same-origin with the pages', async () => {
    const login = await fetch(`${hostUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: siteUrl() },
      body: JSON.stringify({ username: TEST_ADMIN.username, password: TEST_ADMIN.password }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect((await fetch(`${hostUrl}/api/user`, { headers: { cookie } })).status).toBe(200);
    for (const url of ['/admin', '/auth', '/auth/forgot']) {
      const [host, app] = await Promise.all([fetch(hostUrl + url), fetch(server.url + url)]);
      expect(host.status, url).toBe(200);
      expect(host.headers.get('cache-control'), url).toBe('no-store');
      expect(host.headers.get('content-security-policy'), url).toBe(app.headers.get('content-security-policy'));
    }
    // Not in the folder: a host serves them from the origin only.
    expect(await filesOf(CLIENT, /^\/(admin|auth)/)).toEqual([]);
  });
});

describe('[PUBLISH][STATIC] the hosts’ files', () => {
  it('_headers, read as Netlify reads it, gives each page and file the app’s headers', async () => {
    const { headers: rules, errors } = await parseAllHeaders({
      headersFiles: [path.join(CLIENT, '_headers')],
      configHeaders: [],
      minimal: false,
    });
    expect(errors).toEqual([]);
    for (const file of await filesOf(CLIENT)) {
      if (!servedAsPage(file)) continue;
      const url = urlOf(file);
      // Netlify's own rule: each matching rule's headers, a later rule's value replacing an earlier one's.
      const values: Record<string, string> = Object.assign(
        {},
        ...(rules as Header[]).filter((r) => r.forRegExp.test(url)).map((r) => r.values),
      );
      const sent = Object.fromEntries(Object.entries(values).map(([k, v]) => [k.toLowerCase(), v]));
      const app = picked((await fromApp(url)).headers);
      for (const name of SAME.filter((n) => n !== 'content-type')) expect(sent[name] ?? null, `${url} ${name}`).toBe(app[name]);
    }
  });

  it('_redirects and vercel.json send the origin’s paths to it', async () => {
    const origin = server.url;
    const redirects = await fs.readFile(path.join(CLIENT, '_redirects'), 'utf8');
    const vercel = JSON.parse(await fs.readFile(path.join(CLIENT, 'vercel.json'), 'utf8')) as {
      rewrites: { source: string; destination: string }[];
      headers: { source: string }[];
    };
    for (const prefix of ['/api', '/admin', '/auth', '/uploads']) {
      expect(redirects).toContain(`${prefix}/*  ${origin}${prefix}/:splat  200!`);
      expect(vercel.rewrites).toContainEqual({ source: `${prefix}/:path*`, destination: `${origin}${prefix}/:path*` });
    }
    expect(vercel.headers.map((h) => h.source)).toEqual(expect.arrayContaining(['/(.*)', '/_astro/:path*', '/about', `/insights/:path*`]));
  });
});

describe('[PUBLISH][STATIC] render on publish and `npm run build:static` agree', () => {
  /** What a reader gets from a file: its text without markup, scripts or styles, spaces collapsed. */
  const textOf = (html: string) =>
    html
      .replace(/<script[\s\S]*?<\/script>/g, ' ')
      .replace(/<style[\s\S]*?<\/style>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const pages = /\.(html|xml|txt|pdf)$/;
  /** The origin's pages are not in the host's folder. */
  const forHost = (files: string[]) => files.filter((f) => !/^\/(admin|auth)(\.html|\/)/.test(f));

  it('have the same files: every route of the site, one page per published insight', async () => {
    const built = await filesOf(CLIENT, pages);
    expect(forHost(await filesOf(rendered, pages))).toEqual(built);
    expect(built).toEqual(forHost([...expectedFiles(await snapshotContent(server.db))].sort()));
    expect(built.filter((f) => f.startsWith('/insights/') && f !== '/insights/404.html').length).toBeGreaterThan(0);
  });

  it('have the same text on every page, title and JSON-LD included', async () => {
    for (const file of await filesOf(CLIENT, pages)) {
      const [a, b] = await Promise.all([fs.readFile(path.join(rendered, file)), fs.readFile(path.join(CLIENT, file))]);
      if (file.endsWith('.pdf')) {
        // The capability statement: the same bytes (its dates come from the content, not the clock).
        expect(a.equals(b), file).toBe(true);
        continue;
      }
      const [x, y] = [a.toString('utf8'), b.toString('utf8')];
      expect(textOf(x), file).toBe(textOf(y));
      expect(x.match(/<title>[^<]*<\/title>/)?.[0], file).toBe(y.match(/<title>[^<]*<\/title>/)?.[0]);
      const jsonLd = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]);
      expect(jsonLd(x), file).toEqual(jsonLd(y));
    }
  });

  it('use the same client assets', async () => {
    expect(await filesOf(path.join(rendered, '_astro'))).toEqual(await filesOf(path.join(CLIENT, '_astro')));
  });
});

describe('[PUBLISH][STATIC] npm run content:export', () => {
  it('writes the published content of the database it is given, as the snapshot endpoint answers it', async () => {
    // A database of its own (the server's is held by it): a copy of the suite's migrated one.
    const base = process.env.DATABASE_URL;
    const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'content-export-'));
    const postgres = base ? await createPostgresDatabase(base, inject('postgresTemplate') || undefined) : undefined;
    if (!postgres) await fs.cp(inject('pgliteTemplate'), path.join(parent, 'pglite'), { recursive: true });
    const file = path.join(parent, 'content.json');
    try {
      const output = await runNpm(['run', 'content:export', '--', file], { DATABASE_URL: postgres?.url ?? '', DATA_DIR: parent });
      expect(output).toContain(`written to ${file}`);
      const handle = await openDatabase(postgres ? { url: postgres.url, migrate: false } : { dir: path.join(parent, 'pglite') });
      try {
        const { generatedAt: _, ...written } = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
        const { generatedAt: __, ...expected } = JSON.parse(JSON.stringify(await snapshotContent(handle.db))) as Record<string, unknown>;
        expect(written).toEqual(expected);
        expect(Object.keys(written)).toContain('insights');
      } finally {
        await handle.close();
      }
    } finally {
      await postgres?.drop();
      await fs.rm(parent, { recursive: true, force: true });
    }
  }, 120_000);
});
