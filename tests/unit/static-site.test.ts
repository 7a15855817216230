import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { htmlCsp, inlineScriptHashes } from '../../src/server/web/security-headers';
import { loadStaticSite, lookup, precompress } from '../../src/server/web/static-site';

describe('static site', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-'));
  fs.mkdirSync(path.join(dir, '_astro'));
  fs.mkdirSync(path.join(dir, 'insights'));
  const page = `<html><body>${'<p>hello</p>'.repeat(50)}<script>alert(1)</script><script type="application/ld+json">{}</script></body></html>`;
  fs.writeFileSync(path.join(dir, 'index.html'), page);
  fs.writeFileSync(path.join(dir, 'about.html'), page);
  fs.writeFileSync(path.join(dir, 'insights', 'a-post.html'), page);
  fs.writeFileSync(path.join(dir, '_astro', 'app.abc.js'), 'console.log(1);'.repeat(40));

  it('precompresses and loads files with brotli and gzip variants', async () => {
    await precompress(dir);
    const map = await loadStaticSite(dir);
    const home = lookup(map, '/')!;
    expect(zlib.brotliDecompressSync(home.br!).toString()).toBe(page);
    expect(zlib.gunzipSync(home.gz!).toString()).toBe(page);
    expect(home.cacheControl).toContain('must-revalidate');
    expect(lookup(map, '/_astro/app.abc.js')!.cacheControl).toContain('immutable');
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

  it('hashes exactly the executable inline scripts into the CSP', () => {
    const hashes = inlineScriptHashes(page);
    expect(hashes).toHaveLength(1);
    const csp = htmlCsp(hashes);
    expect(csp).toContain(hashes[0]);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline\' \'sha');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});
