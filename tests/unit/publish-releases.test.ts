import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { HEADER_SCRIPT } from '#shared/inline-scripts.ts';
import { activateRelease, codeVersion, markReleaseInUse, pruneReleases, releasesDir } from '#server/publish/releases.ts';
import { createAppServer } from '#server/web/app-server.ts';
import { loadStaticSite, precompress } from '#server/publish/release-files.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'releases-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(dir: string, rel: string, body: string) {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), body);
}

const page = (text: string) =>
  `<!doctype html><html><body>${`<p>${text}</p>`.repeat(40)}<script>${HEADER_SCRIPT}</script><script>go()</script></body></html>`;

describe('[PUBLISH] releases on disk', () => {
  it('precompresses a new release, reusing the previous release’s copies of unchanged files only', async () => {
    const prev = path.join(tmp, 'prev');
    const next = path.join(tmp, 'next');
    for (const dir of [prev, next]) write(dir, '_astro/app.abc.js', 'console.log(1);'.repeat(40));
    write(prev, 'index.html', page('old'));
    write(next, 'index.html', page('new'));
    await precompress(prev);
    // A marker proves reuse: an unchanged file takes the previous copy byte for byte.
    fs.writeFileSync(path.join(prev, '_astro/app.abc.js.br'), 'reused');
    await precompress(next, prev);
    expect(fs.readFileSync(path.join(next, '_astro/app.abc.js.br'), 'utf8')).toBe('reused');
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(next, 'index.html.br'))).toString()).toBe(page('new'));
  });

  it('switches the current link atomically and prunes old releases only after the grace period', async () => {
    process.env.RELEASES_DIR = path.join(tmp, 'rel');
    try {
      for (const id of ['20260101000001-a', '20260101000002-b', '20260101000003-c', '20260101000004-d', '20260101000005-e']) {
        fs.mkdirSync(path.join(releasesDir(), id, 'client'), { recursive: true });
      }
      await activateRelease('20260101000001-a');
      await activateRelease('20260101000002-b');
      expect(fs.readlinkSync(path.join(releasesDir(), 'current'))).toBe('20260101000002-b');
      await pruneReleases(60_000, 2);
      expect(fs.readdirSync(releasesDir()).filter((n) => !n.startsWith('current')).length).toBe(5);
      const old = new Date(Date.now() - 120_000);
      for (const n of fs.readdirSync(releasesDir())) if (n !== 'current') fs.utimesSync(path.join(releasesDir(), n), old, old);
      // Another instance sharing the directory still serves the oldest one (its article pages from disk).
      await markReleaseInUse('20260101000001-a');
      await pruneReleases(60_000, 2);
      expect(fs.readdirSync(releasesDir()).sort()).toEqual([
        '20260101000001-a',
        '20260101000002-b',
        '20260101000004-d',
        '20260101000005-e',
        'current',
      ]);
      fs.utimesSync(path.join(releasesDir(), '20260101000001-a'), old, old);
      await pruneReleases(60_000, 2);
      expect(fs.readdirSync(releasesDir()).sort()).toEqual(['20260101000002-b', '20260101000004-d', '20260101000005-e', 'current']);
    } finally {
      delete process.env.RELEASES_DIR;
    }
  });
});

describe('[PUBLISH] the code version a release was built with', () => {
  it('follows the sources the server bundle was built from, not when it was built', async () => {
    process.env.APP_ROOT = path.join(tmp, 'app');
    try {
      write(process.env.APP_ROOT, 'dist/server/entry.mjs', 'export {};');
      write(process.env.APP_ROOT, 'dist/server/build-stamp.txt', `${'a'.repeat(64)}\n`);
      const before = await codeVersion();
      // `npm run build` again from the same sources: a new bundle file, the same stamp.
      const later = new Date(Date.now() + 60_000);
      fs.utimesSync(path.join(process.env.APP_ROOT, 'dist/server/entry.mjs'), later, later);
      expect(await codeVersion()).toBe(before);
      write(process.env.APP_ROOT, 'dist/server/build-stamp.txt', `${'b'.repeat(64)}\n`);
      expect(await codeVersion()).not.toBe(before);
    } finally {
      delete process.env.APP_ROOT;
    }
  });
});

describe('[PUBLISH] serving a release', () => {
  const dir = path.join(tmp, 'site');
  write(dir, 'index.html', page('home'));
  write(dir, 'about.html', page('about'));
  write(dir, 'insights/index.html', page('list'));
  write(dir, '404.html', page('missing'));

  it('answers clean URLs with the headers worked out at load: encoding, length, ETag, CSP; 304 on a match; 404 page otherwise', async () => {
    await precompress(dir);
    const map = await loadStaticSite(dir);
    expect(map.get('/about')).toBe(map.get('/about.html'));
    expect(map.get('/insights')).toBe(map.get('/insights/index.html'));
    expect(map.get('/')).toBe(map.get('/index.html'));
    const server = createAppServer({
      site: () => map,
      astro: async (_req, _res, next) => next?.(),
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const br = await fetch(`${base}/about?x=1`, { headers: { 'accept-encoding': 'br' } });
      expect(br.status).toBe(200);
      expect(await br.text()).toBe(page('about'));
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(Number(br.headers.get('content-length'))).toBe(fs.statSync(`${map.get('/about')!.path}.br`).size);
      // The page's own script has its hash; the unknown `go()` gets none.
      expect(br.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-[^' ]+';/);
      expect(br.headers.get('x-content-type-options')).toBe('nosniff');
      expect(br.headers.get('strict-transport-security')).toBeNull();
      const etag = br.headers.get('etag')!;
      // As a browser revalidates (fetch alone would add `Cache-Control: no-cache`, which asks for the whole file).
      const again = await fetch(`${base}/about`, {
        headers: { 'accept-encoding': 'br', 'if-none-match': etag, 'cache-control': 'max-age=0' },
      });
      expect(again.status).toBe(304);
      const plain = await fetch(`${base}/insights/`, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await plain.text()).toBe(page('list'));
      const missing = await fetch(`${base}/nope`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('cache-control')).toBe('no-store');
      expect(await missing.text()).toBe(page('missing'));
    } finally {
      server.close();
    }
  });
});
