import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import islandScript from 'astro/runtime/server/astro-island.prebuilt.js';
import { HEADER_SCRIPT } from '#shared/inline-scripts.ts';
import { inlineJson } from '#shared/inline-json.ts';
import { htmlCsp, inlineScriptHashes } from '#server/web/security-headers.ts';
import {
  bytesOf,
  DiskBody,
  etagFor,
  hotBytesOf,
  loadStaticSite,
  lookup,
  noneMatch,
  pickEncoding,
  precompress,
  robotsOf,
} from '#server/web/static-site.ts';

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

  it('precompresses and loads files with brotli and gzip variants', async () => {
    await precompress(dir);
    const map = await loadStaticSite(dir);
    const home = lookup(map, '/')!;
    expect(home.body).toBeInstanceOf(Buffer);
    expect(zlib.brotliDecompressSync(home.br as Buffer).toString()).toBe(page);
    expect(zlib.gunzipSync(home.gz as Buffer).toString()).toBe(page);
    // An article's page is served from disk: only its headers are in memory.
    const article = lookup(map, '/insights/a-post')!;
    expect(article.body).toBeInstanceOf(DiskBody);
    expect(article.etag).toBe(home.etag);
    expect(article.csp).toBe(home.csp);
    expect((await bytesOf(article.body)).toString()).toBe(page);
    expect(zlib.brotliDecompressSync(await bytesOf(article.br!)).toString()).toBe(page);
    expect(zlib.gunzipSync(await bytesOf(article.gz!)).toString()).toBe(page);
    // Read once, then answered from the hot bodies.
    expect(await bytesOf(article.body)).toBe(await bytesOf(article.body));
    expect(hotBytesOf(article.body as DiskBody)).toBeDefined();
    expect(home.cacheControl).toContain('must-revalidate');
    expect(lookup(map, '/_astro/app.abc.js')!.cacheControl).toContain('immutable');
  });

  it("sends a page's own robots directives as X-Robots-Tag (noindex until the site is launched), only from its head", async () => {
    const hidden = fs.mkdtempSync(path.join(os.tmpdir(), 'robots-'));
    fs.writeFileSync(path.join(hidden, 'index.html'), '<html><head><meta name="robots" content="noindex"></head><body>x</body></html>');
    fs.writeFileSync(
      path.join(hidden, 'about.html'),
      '<html><head></head><body><p>&lt;meta name="robots" content="noindex"&gt;</p><meta name="robots" content="noindex"></body></html>',
    );
    const map = await loadStaticSite(hidden);
    const header = (file: ReturnType<typeof lookup>) => {
      const raw = file!.raw.identity![0];
      const at = raw.indexOf('x-robots-tag');
      return at < 0 ? undefined : raw[at + 1];
    };
    expect(lookup(map, '/')!.robots).toBe('noindex');
    expect(header(lookup(map, '/'))).toBe('noindex');
    // A tag outside the head (an article's text showing one) asks nothing.
    expect(lookup(map, '/about')!.robots).toBeUndefined();
    expect(header(lookup(map, '/about'))).toBeUndefined();
    expect(robotsOf('<head><meta name="robots" content="noindex, nofollow"></head>')).toBe('noindex, nofollow');
    expect(robotsOf('<p>no head</p>')).toBeUndefined();
    fs.rmSync(hidden, { recursive: true, force: true });
  });

  it('keeps at most 16 MB of the bodies it read from disk, the least recently served going first', async () => {
    const big = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-'));
    const bodies = Array.from({ length: 18 }, (_, i) => {
      const file = path.join(big, `${i}.html`);
      fs.writeFileSync(file, Buffer.alloc(1024 * 1024, i));
      return new DiskBody(file, 1024 * 1024);
    });
    try {
      await bytesOf(bodies[0]!);
      for (const body of bodies.slice(1, 15)) await bytesOf(body);
      // The first one served again: now the most recent.
      expect(hotBytesOf(bodies[0]!)).toBeDefined();
      for (const body of bodies.slice(15)) await bytesOf(body);
      expect(hotBytesOf(bodies[0]!)).toBeDefined();
      expect(hotBytesOf(bodies[1]!)).toBeUndefined();
      expect(hotBytesOf(bodies[17]!)).toBeDefined();
      const held = bodies.filter((b) => hotBytesOf(b) !== undefined).length;
      expect(held).toBeLessThanOrEqual(16);
    } finally {
      fs.rmSync(big, { recursive: true, force: true });
    }
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
      expect(lookup(map, url)!.etag, url).toMatch(/^"/);
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

describe('[HTTP] content negotiation and validators', () => {
  const both = { br: Buffer.from('b'), gz: Buffer.from('g') };
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['gzip;q=0.5, br;q=0.1', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', 'identity'],
    ['', 'identity'],
  ])('Accept-Encoding %j gives %s', (accept, encoding) => expect(pickEncoding(accept, both)).toBe(encoding));

  it('each encoding has its own ETag; If-None-Match takes lists, W/ and *', () => {
    const file = { etag: '"abc"' };
    expect(new Set([etagFor(file, 'identity'), etagFor(file, 'br'), etagFor(file, 'gzip')]).size).toBe(3);
    expect(noneMatch('"x", W/"abc-br"', etagFor(file, 'br'))).toBe(true);
    expect(noneMatch('"abc-br"', etagFor(file, 'gzip'))).toBe(false);
    expect(noneMatch('*', etagFor(file, 'identity'))).toBe(true);
    expect(noneMatch(undefined, etagFor(file, 'identity'))).toBe(false);
  });
});
