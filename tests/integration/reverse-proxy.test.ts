import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotContent } from '#server/content/site-content.ts';
import { contactSubmissions, pageViews } from '#server/db/schema/index.ts';
import { htmlCsp } from '#server/security-headers.ts';
import { SECURITY_HEADERS, ensureNginx, startNginx } from './helpers/nginx';
import { freePort } from './helpers/ports';
import { TEST_ADMIN, signIn, startTestServer, type TestServer } from './helpers/server';
import { createUser } from '#server/services/users.ts';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const { publishContent } = bundleApi;
/** The files the server serves: its engine's live release. */
const liveSite = () => server.store.live.site();

/*
 * The product behind a real nginx (Debian's) running the shipped site config
 * (deploy/nginx/procurement-site.conf), as a deployment runs it: TLS ends at nginx, which serves
 * the live release's files itself and forwards the rest with X-Forwarded-For and
 * X-Forwarded-Proto, and the server runs with TRUST_PROXY. Client addresses, https, cookies, HSTS
 * and the answers for the site's files are checked as a browser and the database see them.
 */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body as it came, before any decoding. */
  raw: Buffer;
}

/**
 * A request; https skips certificate checks (self-signed), `from` picks the client's loopback
 * address, `path` sends a target as it is (a URL would resolve dot segments).
 */
function call(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; from?: string; path?: string } = {},
): Promise<Answer> {
  const u = new URL(url);
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      {
        host: u.hostname,
        port: u.port,
        path: opts.path ?? u.pathname + u.search,
        method: opts.method ?? 'GET',
        headers: opts.headers,
        localAddress: opts.from,
        rejectUnauthorized: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: raw.toString('utf8'), raw });
        });
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The body as a page reads it. */
const decoded = (a: Answer) => (a.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(a.raw) : a.raw).toString('utf8');

/** nginx's entity tags are `"mtime-size"` in hex; the app's are weak (`W/"size-mtime"`, send's). */
const FROM_DISK = /^"[0-9a-f]+-[0-9a-f]+"$/;

/** The headers the app and nginx must agree on for a file of the release. */
const SAME = ['content-type', 'cache-control', 'content-security-policy', 'content-encoding', 'vary', ...SECURITY_HEADERS];

/** The shipped site config, with its `${NAME}` values filled in (docs/deployment-nginx.md does it with envsubst). */
function siteConfig(values: Record<string, string>): string {
  const text = fs.readFileSync(path.resolve('deploy/nginx/procurement-site.conf'), 'utf8');
  const filled = text.replace(/\$\{([A-Z_]+)\}/g, (whole, name: string) => {
    if (!(name in values)) throw new Error(`no value for ${whole}`);
    return values[name]!;
  });
  return filled;
}

let server: TestServer;
let nginx: ChildProcess | undefined;
let dir: string;
let releases: string;
let tlsUrl: string;
let plainUrl: string;

/** Reads the release maps again, as `systemctl reload nginx` does. */
async function reloadNginx(): Promise<void> {
  const errors = () => fs.readFileSync(path.join(dir, 'error.log'), 'utf8');
  const before = errors().length;
  nginx!.kill('SIGHUP');
  // The new worker is up once the old one is told to go.
  for (let i = 0; i < 100 && !/gracefully shutting down|reconfiguring/.test(errors().slice(before)); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 300));
}

beforeAll(async () => {
  ensureNginx();
  process.env.TRUST_PROXY = 'true';
  // Inside the project, as the releases are hard links of dist/client.
  releases = path.resolve(`.releases-proxy-${process.pid}`);
  process.env.RELEASES_DIR = releases;
  resetEnvCache();
  server = await startTestServer({ trustProxy: true });
  await publishContent(server.store, await snapshotContent(server.db));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proxy-'));
  const sslRes = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  expect(sslRes.status).toBe(0);
  const [tls, plain] = [await freePort(), await freePort()];
  fs.writeFileSync(
    path.join(dir, 'site.conf'),
    siteConfig({
      SERVER_NAME: '127.0.0.1',
      HTTPS_LISTEN: `127.0.0.1:${tls}`,
      HTTP_LISTEN: `127.0.0.1:${plain}`,
      TLS_CERTIFICATE: path.join(dir, 'cert.pem'),
      TLS_CERTIFICATE_KEY: path.join(dir, 'key.pem'),
      APP_ADDRESS: new URL(server.url).host,
      RELEASES_DIR: releases,
    }),
  );
  const started = startNginx(dir, path.join(dir, 'site.conf'));
  nginx = started.process;
  const nginxErrors = started.errors;
  tlsUrl = `https://127.0.0.1:${tls}`;
  plainUrl = `http://127.0.0.1:${plain}`;
  for (let i = 0; ; i++) {
    const up = await call(`${tlsUrl}/api/content/header/active`).catch(() => undefined);
    if (up?.status === 200) break;
    if (i === 100) throw new Error(`nginx did not start: ${nginxErrors()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 300_000);

afterAll(async () => {
  nginx?.kill('SIGTERM');
  await server?.close();
  delete process.env.TRUST_PROXY;
  delete process.env.RELEASES_DIR;
  resetEnvCache();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (releases) fs.rmSync(releases, { recursive: true, force: true });
});

describe('[SECURITY][PROXY] behind nginx with TLS', { timeout: 60_000 }, () => {
  it('https answers carry HSTS; plain http is sent to https, without HSTS', async () => {
    const secure = await call(`${tlsUrl}/api/content/header/active`);
    expect(secure.status).toBe(200);
    expect(secure.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    const plain = await call(`${plainUrl}/about?x=1`);
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe('https://127.0.0.1/about?x=1');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // Neither server block names nginx's version.
    expect(plain.headers.server).toBe('nginx');
    expect(secure.headers.server).toBe('nginx');
  });

  it('signing in over https sets the Secure __Host- session cookie, which authenticates the next call', async () => {
    const origin = tlsUrl;
    const login = await call(`${tlsUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ username: TEST_ADMIN.username, password: TEST_ADMIN.password }),
    });
    expect(login.status).toBe(200);
    const cookies = [login.headers['set-cookie'] ?? []].flat();
    const session = cookies.find((c) => c.startsWith('__Host-ps.session_token='));
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*Path=\//i);
    expect(session).not.toMatch(/Domain=/i);
    const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
    const me = await call(`${tlsUrl}/api/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body).user.username).toBe(TEST_ADMIN.username);
  });

  it('the client address is the one nginx saw, not one the client forged in X-Forwarded-For', async () => {
    const res = await call(`${tlsUrl}/api/contact`, {
      method: 'POST',
      from: '127.0.0.7',
      headers: { 'content-type': 'application/json', origin: tlsUrl, 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ name: 'Jane Buyer', email: 'jane@agency.gov', message: 'Forty laptops by June, please.' }),
    });
    expect(res.status).toBe(201);
    const [row] = await server.db.select().from(contactSubmissions).orderBy(desc(contactSubmissions.id)).limit(1);
    expect(row!.ipAddress).toBe('127.0.0.7');
  });
});

describe('[SECURITY][READYZ] the readiness checks are for this machine and administrators', { timeout: 60_000 }, () => {
  it('a visitor (the address the proxy forwarded) gets the status alone; an administrator, or a monitor on this machine, gets the checks', async () => {
    const visitor = { 'x-forwarded-for': '203.0.113.9' };
    const ready = async (cookie?: string) => {
      const res = await server.request('/readyz', { headers: visitor, cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      return (await res.json()) as { status: string; checks?: Record<string, unknown> };
    };
    expect(await ready()).toEqual({ status: 'ready' });
    // A forged session cookie, or an account that is not an administrator, changes nothing.
    expect(await ready('ps.session_token=forged.sig')).toEqual({ status: 'ready' });
    await createUser(server.db, { username: 'readyz-user', email: 'readyz-user@example.com', password: 'readyz-user-pw', role: 'user' });
    expect(await ready(await signIn(server, 'readyz-user', 'readyz-user-pw'))).toEqual({ status: 'ready' });
    const admin = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
    expect((await ready(admin)).checks).toMatchObject({ database: 'ok', disk: { ok: true } });
    // On this machine, nobody forwarding: the checks.
    expect(((await (await server.request('/readyz')).json()) as { checks?: unknown }).checks).toMatchObject({ database: 'ok' });
  });
});

describe('[SECURITY][PROXY] nginx serves the live release as the app would', { timeout: 120_000 }, () => {
  /** Request paths for every file of the live release (pages by their clean URL), not-found pages aside. */
  const files = () =>
    [...liveSite().keys()]
      .filter((k) => /\.[a-z0-9]+$/.test(k) && !/\/404\.html$/.test(k))
      .map((k) => (k === '/index.html' ? '/' : k.replace(/(\/index)?\.html$/, '')));

  it('every file from disk, gzip when taken, with the app’s security headers, cache rules and the page’s own CSP', async () => {
    const paths = files();
    expect(paths).toContain('/about');
    expect(paths.some((p) => p.startsWith('/_astro/'))).toBe(true);
    for (const p of paths) {
      const headers = { 'accept-encoding': 'gzip' };
      const fromNginx = await call(`${tlsUrl}${p}`, { headers });
      const fromApp = await call(`${server.url}${p}`, { headers: { ...headers, 'x-forwarded-proto': 'https' } });
      expect({ p, status: fromNginx.status, etag: FROM_DISK.test(String(fromNginx.headers.etag)) }).toEqual({
        p,
        status: 200,
        etag: true,
      });
      const pick = (a: Answer) => Object.fromEntries(SAME.map((h) => [h, a.headers[h]]));
      expect({ p, ...pick(fromNginx) }).toEqual({ p, ...pick(fromApp) });
      expect(decoded(fromNginx) === decoded(fromApp), p).toBe(true);
    }
    const about = await call(`${tlsUrl}/about`);
    expect(about.headers['content-security-policy']).toContain("script-src 'self'");
    expect(about.headers['content-encoding']).toBeUndefined();
  });

  it('a page nginx serves from disk is counted once, by the app, without the answer waiting; assets, HEAD and a crawler are not', async () => {
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    await bundleApi.flushVisits();
    await server.db.delete(pageViews);
    const page = await call(`${tlsUrl}/about?utm_source=nginx-test&utm_campaign=proxy`, {
      from: '127.0.0.9',
      headers: { 'user-agent': chrome, referer: 'https://sam.gov/opp/1' },
    });
    expect(page.status).toBe(200);
    expect(FROM_DISK.test(String(page.headers.etag))).toBe(true);
    const asset = files().find((p) => p.startsWith('/_astro/'))!;
    expect((await call(`${tlsUrl}${asset}`, { headers: { 'user-agent': chrome } })).status).toBe(200);
    expect((await call(`${tlsUrl}/about`, { method: 'HEAD', headers: { 'user-agent': chrome } })).status).toBe(200);
    expect((await call(`${tlsUrl}/services`, { headers: { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0)' } })).status).toBe(200);
    // The report reaches the app a moment after the answer: wait for it, then for anything more.
    let views: (typeof pageViews.$inferSelect)[] = [];
    for (let i = 0; i < 50 && views.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await bundleApi.flushVisits();
      views = await server.db.select().from(pageViews);
    }
    await new Promise((r) => setTimeout(r, 300));
    await bundleApi.flushVisits();
    views = await server.db.select().from(pageViews);
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({
      path: '/about',
      referrer: 'sam.gov',
      utmSource: 'nginx-test',
      utmCampaign: 'proxy',
      device: 'desktop',
    });
    // The report's address is the visitor's, as nginx saw it: another address is another visitor.
    await call(`${tlsUrl}/about`, { from: '127.0.0.10', headers: { 'user-agent': chrome } });
    await call(`${tlsUrl}/about`, { from: '127.0.0.9', headers: { 'user-agent': chrome } });
    for (let i = 0; i < 50 && views.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await bundleApi.flushVisits();
      views = await server.db.select().from(pageViews);
    }
    expect(new Set(views.map((v) => v.visitor)).size).toBe(2);
  });

  it('answers 304 to its own entity tag, and HEAD without a body', async () => {
    const first = await call(`${tlsUrl}/about`, { headers: { 'accept-encoding': 'gzip' } });
    const again = await call(`${tlsUrl}/about`, { headers: { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) } });
    expect(again.status).toBe(304);
    const head = await call(`${tlsUrl}/about`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.raw.length).toBe(0);
  });

  it('leaves to the app what it answers its own way: other methods, not-found pages, odd paths, the compressed copies', async () => {
    const post = await call(`${tlsUrl}/about`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: tlsUrl },
      body: '{}',
    });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const notFoundPage = fs.readFileSync(liveSite().get('/404.html')!.path, 'utf8');
    // (`/%2e%2e/about`, above the root once decoded, nginx refuses itself with 400.)
    for (const target of [
      '/404',
      '/404.html',
      '/nope',
      '/about/..',
      '/x/../about',
      '//about',
      '/x/%2e%2e/about',
      '/_astro/',
      '/about.html.gz',
    ]) {
      const res = await call(tlsUrl, { path: target });
      expect({ target, status: res.status }).toEqual({ target, status: 404 });
      expect(res.body, target).toBe(notFoundPage);
      expect(res.headers['content-security-policy'], target).toBe(liveSite().get('/404.html')!.csp);
    }
    const slash = await call(`${tlsUrl}/about/`);
    expect(slash.status).toBe(200);
    expect(slash.headers.etag).not.toMatch(FROM_DISK);
    expect(slash.body).toBe(fs.readFileSync(liveSite().get('/about.html')!.path, 'utf8'));
  });

  it('a release published since nginx last read the maps is served by the app, and by nginx after a reload', async () => {
    const before = await call(`${tlsUrl}/about`);
    expect(before.headers.etag).toMatch(FROM_DISK);
    await publishContent(server.store, await snapshotContent(server.db));
    const meanwhile = await call(`${tlsUrl}/about`);
    expect(meanwhile.status).toBe(200);
    expect(meanwhile.headers.etag).not.toMatch(FROM_DISK);
    expect(meanwhile.headers['content-security-policy']).toBe(liveSite().get('/about.html')!.csp);
    await reloadNginx();
    const after = await call(`${tlsUrl}/about`);
    expect(after.headers.etag).toMatch(FROM_DISK);
    expect(after.headers['content-security-policy']).toBe(liveSite().get('/about.html')!.csp);
  });

  it('the CSP nginx sends for a page missing from the map is a page’s CSP with no inline script', () => {
    expect(fs.readFileSync(path.resolve('deploy/nginx/procurement-site.conf'), 'utf8')).toContain(`"${htmlCsp([])}"`);
  });
});

// Last: it stops the app.
describe('[RELIABILITY][PROXY] while the app is down', { timeout: 60_000 }, () => {
  it('nginx answers 503 with Retry-After: our own page, or `{ message }` JSON for the API; never its own 502 page', async () => {
    const before = await call(`${tlsUrl}/api/no-such-endpoint`);
    expect(before.status).toBe(404);
    const app = server;
    server = undefined as unknown as TestServer; // afterAll has nothing left to close
    await app.close();
    // A page that is not a file of the release goes to the app.
    const page = await call(`${tlsUrl}/no-such-page`);
    expect(page.status).toBe(503);
    expect(page.headers['retry-after']).toBe('60');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('<h1>We will be back in a minute</h1>');
    expect(page.body).not.toMatch(/nginx|Bad Gateway/i);
    const api = await call(`${tlsUrl}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: tlsUrl },
      body: JSON.stringify({ name: 'Jane Buyer', email: 'jane@agency.gov', message: 'Forty laptops by June, please.' }),
    });
    expect(api.status).toBe(503);
    expect(api.headers['retry-after']).toBe('60');
    expect(api.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(api.body)).toEqual({ message: 'The service is briefly unavailable. Please try again in a minute.' });
    // The page is only an answer: asked for by name, it is not found.
    expect((await call(`${tlsUrl}/.unavailable-page`)).status).toBe(404);
  });
});
