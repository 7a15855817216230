import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServer, type AstroHandler } from '#server/web/app-server.ts';
import { API_CSP, htmlCsp } from '#server/security-headers.ts';
import { loadStaticSite, precompress } from '#server/publish/release-files.ts';
import type { StaticMap } from '#server/web/static-site.ts';

/*
 * Each route of the server's table, reached over a raw socket (fetch would resolve dot segments
 * and refuse odd targets itself): the release's files, their 304s, 405 for other methods, the
 * not-found page for paths no page has, 400 for targets that are not a path, and Astro for the rest.
 */
const page = (text: string) => `<!doctype html><html><body>${`<p>${text}</p>`.repeat(40)}</body></html>`;

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `request` and reads until the server closes. With `halfClose` the client then closes its
 * side, as curl does not: node then drops a request not yet answered, so answers that wait (a file
 * read from disk) are asked for with the side left open (`get` does).
 */
function raw(port: number, request: string, halfClose = true): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => (halfClose ? socket.end(request) : socket.write(request)));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const blank = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, blank).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(blank + 4) });
    });
  });
}

const get = (port: number, target: string, extra = '', halfClose = false) =>
  raw(port, `GET ${target} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n${extra}\r\n`, halfClose);

describe('[SERVER] the route table of createAppServer', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'routes-'));
  fs.writeFileSync(path.join(dir, 'about.html'), page('about'));
  fs.writeFileSync(path.join(dir, '404.html'), page('missing'));
  fs.mkdirSync(path.join(dir, 'insights'));
  fs.writeFileSync(path.join(dir, 'insights', 'an-article.html'), page('an article'));
  fs.writeFileSync(path.join(dir, 'insights', 'gone.html'), page('gone'));
  let map: StaticMap;
  /** What Astro was handed: the path and the forwarded-for header it saw. */
  const seen: { url?: string; forwarded?: string }[] = [];
  const astro: AstroHandler = async (req, res, next) => {
    seen.push({ url: req.url, forwarded: req.headers['x-forwarded-for'] as string | undefined });
    if (req.url !== '/api/echo') return next?.();
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  };
  const servers: http.Server[] = [];
  let plain = 0;
  let proxied = 0;

  async function start(trustProxy: boolean): Promise<number> {
    const server = createAppServer({ astro, site: () => map, trustProxy });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as AddressInfo).port;
  }

  beforeAll(async () => {
    await precompress(dir);
    map = await loadStaticSite(dir);
    plain = await start(false);
    proxied = await start(true);
  });
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves a file of the release precompressed, with its ETag, CSP and security headers; 304 when current', async () => {
    const br = await get(plain, '/about', 'Accept-Encoding: gzip, br\r\n');
    expect(br.status).toBe(200);
    expect(br.headers).toMatchObject({
      'content-encoding': 'br',
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, max-age=0, must-revalidate',
      vary: 'Accept-Encoding',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': htmlCsp([]),
    });
    expect(br.headers['strict-transport-security']).toBeUndefined();
    const gzip = await get(plain, '/about', 'Accept-Encoding: gzip\r\n');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.etag).not.toBe(br.headers.etag);
    const again = await get(plain, '/about', `Accept-Encoding: gzip\r\nIf-None-Match: ${gzip.headers.etag}\r\n`);
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    const https = await get(proxied, '/about', 'X-Forwarded-Proto: https\r\n');
    expect(https.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    expect(https.body).toBe(page('about'));
  });

  it('serves an article page as it serves any page: each encoding, HEAD, 304', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await get(plain, '/insights/an-article', `Accept-Encoding: ${encoding}\r\n`);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body, 'latin1'));
      const bytes = Buffer.from(res.body, 'latin1');
      const text = encoding === 'br' ? zlib.brotliDecompressSync(bytes) : encoding === 'gzip' ? zlib.gunzipSync(bytes) : bytes;
      expect(text.toString()).toBe(page('an article'));
    }
    const head = await raw(plain, 'HEAD /insights/an-article HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', false);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const full = await get(plain, '/insights/an-article');
    const again = await get(plain, '/insights/an-article', `If-None-Match: ${full.headers.etag}\r\n`);
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('a page whose file was removed under the server is a 500, not a hang', async () => {
    fs.rmSync(path.join(dir, 'insights', 'gone.html'));
    const res = await get(plain, '/insights/gone');
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body)).toEqual({ message: 'Internal server error' });
  });

  it('answers 405 to other methods on a file of the release', async () => {
    const post = await raw(plain, 'POST /about HTTP/1.1\r\nHost: a\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(post.headers['content-security-policy']).toBe(API_CSP);
  });

  it('answers the not-found page with 404 to dot segments, `//` and the not-found page itself, without asking Astro', async () => {
    seen.length = 0;
    for (const target of ['/404', '/404.html', '/about/..', '/%2e%2e/about', '/./about', '//about']) {
      const res = await get(plain, target);
      expect({ target, status: res.status }).toEqual({ target, status: 404 });
      expect(res.body).toBe(page('missing'));
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(seen).toEqual([]);
  });

  it('answers 400 to a target that is not a path', async () => {
    const star = await raw(plain, 'OPTIONS * HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(star.status).toBe(400);
    expect(star.headers['content-security-policy']).toBe(API_CSP);
  });

  it('hands the rest to Astro with the security headers set, dropping X-Forwarded-For unless a proxy is trusted', async () => {
    seen.length = 0;
    const api = await get(plain, '/api/echo', 'X-Forwarded-For: 203.0.113.9\r\n');
    expect(api.status).toBe(200);
    expect(api.headers['content-security-policy']).toBe(API_CSP);
    expect(api.headers['x-request-id']).toMatch(/^[0-9a-f]{16}$/);
    await get(proxied, '/api/echo', 'X-Forwarded-For: 203.0.113.9\r\n');
    expect(seen).toEqual([
      { url: '/api/echo', forwarded: undefined },
      { url: '/api/echo', forwarded: '203.0.113.9' },
    ]);
    const missing = await get(plain, '/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-security-policy']).toBe(htmlCsp([]));
    expect(missing.body).toBe(page('missing'));
  });
});
