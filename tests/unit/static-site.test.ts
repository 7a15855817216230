import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import islandScript from 'astro/runtime/server/astro-island.prebuilt.js';
import { HEADER_SCRIPT } from '#shared/inline-scripts.ts';
import { inlineJson } from '#shared/inline-json.ts';
import { htmlCsp, inlineScriptHashes } from '#server/security-headers.ts';
import { loadStaticSite, precompress, robotsOf } from '#server/publish/release-files.ts';
import { createAppServer } from '#server/web/app-server.ts';
import { lookup } from '#server/web/static-site.ts';

describe('static site', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-'));
  fs.mkdirSync(path.join(dir, '_astro'));
  fs.mkdirSync(path.join(dir, 'insights'));
  const page = `<html><body>${'<p>hello</p>'.repeat(50)}<script>alert(1)</script><script type="application/ld+json">{}</script></body></html>`;
  fs.writeFileSync(path.join(dir, 'index.html'), page);
  fs.writeFileSync(path.join(dir, 'about.html'), page);
  fs.writeFileSync(path.join(dir, 'insights', 'a-post.html'), page);
  fs.writeFileSync(path.join(dir, '_astro', 'app.abc.js'), 'console.log(1);'.repeat(40));
  fs.writeFileSync(path.join(dir, 'admin.html'), page);
  fs.writeFileSync(path.join(dir, 'auth.html'), page);

  it('precompresses, and describes each file with its compressed copies, type, cache rules and CSP', async () => {
    await precompress(dir);
    const map = await loadStaticSite(dir);
    const home = lookup(map, '/')!;
    expect(home.path).toBe(path.join(dir, 'index.html'));
    expect(home.encodings).toEqual(['br', 'gzip']);
    expect(home.type).toBe('text/html; charset=utf-8');
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${home.path}.br`)).toString()).toBe(page);
    expect(zlib.gunzipSync(fs.readFileSync(`${home.path}.gz`)).toString()).toBe(page);
    // A fixed page is held in memory with its copies, each with its own entity tag.
    expect(zlib.brotliDecompressSync(home.held!.br!.bytes).toString()).toBe(page);
    expect(new Set([home.held!.identity!.etag, home.held!.br!.etag, home.held!.gzip!.etag]).size).toBe(3);
    // An article's page is served from disk: only its description is in memory.
    const article = lookup(map, '/insights/a-post')!;
    expect(article.path).toBe(path.join(dir, 'insights', 'a-post.html'));
    expect(article.held).toBeUndefined();
    expect(article.csp).toBe(home.csp);
    expect(home.cacheControl).toContain('must-revalidate');
    const script = lookup(map, '/_astro/app.abc.js')!;
    expect(script.cacheControl).toContain('immutable');
    expect(script.type).toBe('text/javascript; charset=utf-8');
  });

  it("sends a page's own robots directives as X-Robots-Tag (noindex until the site is launched), only from its head", async () => {
    const hidden = fs.mkdtempSync(path.join(os.tmpdir(), 'robots-'));
    fs.writeFileSync(path.join(hidden, 'index.html'), '<html><head><meta name="robots" content="noindex"></head><body>x</body></html>');
    fs.writeFileSync(
      path.join(hidden, 'about.html'),
      '<html><head></head><body><p>&lt;meta name="robots" content="noindex"&gt;</p><meta name="robots" content="noindex"></body></html>',
    );
    const map = await loadStaticSite(hidden);
    const server = createAppServer({ astro: async (_req, _res, next) => next?.(), site: () => map });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const header = async (target: string) =>
      (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${target}`)).headers.get('x-robots-tag');
    expect(lookup(map, '/')!.robots).toBe('noindex');
    expect(await header('/')).toBe('noindex');
    // A tag outside the head (an article's text showing one) asks nothing.
    expect(lookup(map, '/about')!.robots).toBeUndefined();
    expect(await header('/about')).toBeNull();
    server.close();
    expect(robotsOf('<head><meta name="robots" content="noindex, nofollow"></head>')).toBe('noindex, nofollow');
    expect(robotsOf('<p>no head</p>')).toBeUndefined();
    fs.rmSync(hidden, { recursive: true, force: true });
  });

  it('[SECURITY]: the sign-in page and the back office are never cached; pages allow no <base>', async () => {
    const map = await loadStaticSite(dir);
    expect(lookup(map, '/admin')!.cacheControl).toBe('no-store');
    expect(lookup(map, '/auth')!.cacheControl).toBe('no-store');
    expect(lookup(map, '/about')!.cacheControl).toContain('must-revalidate');
    expect(lookup(map, '/about')!.csp).toContain("base-uri 'none'");
  });

  it('what a publish rewrites under the same name is revalidated (ETag), never kept an hour: the statement, sitemap, feed, robots.txt', async () => {
    for (const name of ['capability-statement.pdf', 'sitemap.xml', 'rss.xml', 'robots.txt']) fs.writeFileSync(path.join(dir, name), 'x');
    fs.writeFileSync(path.join(dir, 'favicon.ico'), 'x');
    const map = await loadStaticSite(dir);
    for (const url of ['/capability-statement.pdf', '/sitemap.xml', '/rss.xml', '/robots.txt']) {
      expect(lookup(map, url)!.cacheControl, url).toBe('public, max-age=0, must-revalidate');
    }
    expect(lookup(map, '/favicon.ico')!.cacheControl).toBe('public, max-age=3600');
  });

  it('maps clean URLs and refuses traversal', async () => {
    const map = await loadStaticSite(dir);
    expect(lookup(map, '/about')).toBeDefined();
    expect(lookup(map, '/about/')).toBeDefined();
    expect(lookup(map, '/insights/a-post')).toBeDefined();
    expect(lookup(map, '/nope')).toBeUndefined();
    expect(lookup(map, '/../etc/passwd')).toBeUndefined();
    expect(lookup(map, '/%E0%A4%A')).toBeUndefined();
  });

  it('hashes only the inline scripts the build emits, never one that appears in the stored content', () => {
    const html = `<html><head><script>${islandScript}</script><script>alert(1)</script></head><body><script>${HEADER_SCRIPT}</script><script type="application/ld+json">{}</script></body></html>`;
    const hashes = inlineScriptHashes(html);
    expect(hashes).toHaveLength(2);
    expect(inlineScriptHashes('<script>alert(1)</script>')).toEqual([]);
    const csp = htmlCsp(hashes);
    for (const h of hashes) expect(csp).toContain(h);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});

describe('inline JSON', () => {
  it('escapes what could end a script element, and parses back to the same value', () => {
    const value = { title: '</script><script>alert(1)</script><!-- & \u2028\u2029 >' };
    const text = inlineJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('[HTTP] content negotiation and validators, through the server', () => {
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'negotiation-'));
  fs.writeFileSync(path.join(site, 'about.html'), `<p>${'about us '.repeat(100)}</p>`);
  fs.mkdirSync(path.join(site, 'insights'));
  fs.writeFileSync(path.join(site, 'insights', 'a-post.html'), `<p>${'about us '.repeat(100)}</p>`);
  let server: ReturnType<typeof createAppServer>;
  let base = '';
  /** A GET with exactly these headers (fetch would add its own Accept-Encoding), the body decoded. */
  const get = (headers: Record<string, string>, target = '/about') =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
      http
        .get(`${base}${target}`, { headers, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            const coding = res.headers['content-encoding'];
            const text = (coding === 'br' ? zlib.brotliDecompressSync(raw) : coding === 'gzip' ? zlib.gunzipSync(raw) : raw).toString();
            resolve({ status: res.statusCode!, headers: res.headers, text });
          });
        })
        .on('error', reject);
    });
  beforeAll(async () => {
    await precompress(site);
    const map = await loadStaticSite(site);
    server = createAppServer({ astro: async (_req, _res, next) => next?.(), site: () => map });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    fs.rmSync(site, { recursive: true, force: true });
  });

  // The client's weights decide; between equals, brotli (the smaller) first.
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['gzip;q=0.5, br;q=0.1', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', 'identity'],
    ['', 'identity'],
  ])('Accept-Encoding %j gives %s', async (accept, encoding) => {
    const res = await get({ 'accept-encoding': accept });
    expect(res.headers['content-encoding'] ?? 'identity').toBe(encoding);
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.text).toBe(`<p>${'about us '.repeat(100)}</p>`);
  });

  it.each(['/about', '/insights/a-post'])('%s: each encoding has its own ETag; If-None-Match takes lists, W/ and *', async (target) => {
    const tags = await Promise.all(
      ['br', 'gzip', 'identity'].map(async (e) => (await get({ 'accept-encoding': e }, target)).headers.etag!),
    );
    expect(new Set(tags).size).toBe(3);
    const [br, gzip, identity] = tags as [string, string, string];
    const status = async (headers: Record<string, string>) => (await get(headers, target)).status;
    expect(await status({ 'accept-encoding': 'br', 'if-none-match': `"x", ${br}` })).toBe(304);
    expect(await status({ 'accept-encoding': 'br', 'if-none-match': br.replace(/^W\//, '') })).toBe(304);
    expect(await status({ 'accept-encoding': 'gzip', 'if-none-match': br })).toBe(200);
    expect(await status({ 'accept-encoding': 'gzip', 'if-none-match': gzip })).toBe(304);
    expect(await status({ 'if-none-match': '*' })).toBe(304);
    expect(await status({ 'accept-encoding': 'identity', 'if-none-match': identity })).toBe(304);
    expect(await status({})).toBe(200);
  });

  it('answers a range of a file from disk, and the whole file to a range that is no longer current; a page held in memory whole', async () => {
    const part = await get({ 'accept-encoding': 'identity', range: 'bytes=3-10' }, '/insights/a-post');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toMatch(/^bytes 3-10\/\d+$/);
    expect(part.text).toBe('about us');
    const stale = await get({ 'accept-encoding': 'identity', range: 'bytes=3-10', 'if-range': 'W/"old"' }, '/insights/a-post');
    expect(stale.status).toBe(200);
    expect((await get({ 'accept-encoding': 'identity', range: 'bytes=99999-' }, '/insights/a-post')).status).toBe(416);
    const held = await get({ 'accept-encoding': 'identity', range: 'bytes=3-10' });
    expect(held.status).toBe(200);
    expect(held.text).toBe(`<p>${'about us '.repeat(100)}</p>`);
  });
});
