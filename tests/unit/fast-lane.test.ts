import fs from 'node:fs';
import type http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServer, type AstroHandler } from '#server/web/app-server.ts';
import { parseSimpleRequest } from '#server/web/fast-lane.ts';
import { loadStaticSite, precompress, type StaticMap } from '#server/web/static-site.ts';

const parse = (text: string) => parseSimpleRequest(Buffer.from(text, 'latin1'), 0);

describe('[SERVER][LANE] request heads the fast lane takes', () => {
  it('takes a plain GET or HEAD with the headers it reads', () => {
    const text = 'GET /about?x=1 HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip, br\r\nIf-None-Match: "e"\r\nX-Other: 1\r\n\r\n';
    expect(parse(text)).toEqual({
      method: 'GET',
      target: '/about?x=1',
      headers: { 'accept-encoding': 'gzip, br', 'if-none-match': '"e"', 'x-forwarded-proto': undefined },
      close: false,
      end: text.length,
    });
    expect(parse('HEAD / HTTP/1.1\r\nhost: a\r\nConnection: Close\r\n\r\n')).toMatchObject({ method: 'HEAD', close: true });
    const two = Buffer.from('GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n');
    const first = parseSimpleRequest(two, 0)!;
    expect(parseSimpleRequest(two, first.end)).toMatchObject({ target: '/b', end: two.length });
  });

  it.each([
    ['another method', 'POST /api/contact HTTP/1.1\r\nHost: a\r\n\r\n'],
    ['HTTP/1.0', 'GET / HTTP/1.0\r\nHost: a\r\n\r\n'],
    ['an absolute-form target', 'GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n'],
    ['no Host', 'GET / HTTP/1.1\r\nAccept: */*\r\n\r\n'],
    ['two Host headers', 'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n'],
    ['a repeated header it reads', 'GET / HTTP/1.1\r\nHost: a\r\nIf-None-Match: "a"\r\nif-none-match: "b"\r\n\r\n'],
    ['a Content-Length', 'GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n'],
    ['a Transfer-Encoding, any case', 'GET / HTTP/1.1\r\nHost: a\r\ntRANSFER-encoding: chunked\r\n\r\n'],
    ['an upgrade', 'GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n'],
    ['Expect', 'GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n'],
    ['a folded header', 'GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n 2\r\n\r\n'],
    ['a bare LF', 'GET / HTTP/1.1\r\nHost: a\nX-A: 1\r\n\r\n'],
    ['a control character', 'GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\x002\r\n\r\n'],
    ['a space before the colon', 'GET / HTTP/1.1\r\nHost : a\r\n\r\n'],
    ['an incomplete head', 'GET / HTTP/1.1\r\nHost: a\r\n'],
    ['a head over 16 KB', `GET / HTTP/1.1\r\nHost: a\r\nX-A: ${'a'.repeat(17_000)}\r\n\r\n`],
  ])('leaves %s to node:http', (_name, text) => {
    expect(parse(text)).toBeUndefined();
  });
});

interface RawResponse {
  status: number;
  /** Header names as written on the wire. */
  names: string[];
  headers: Record<string, string>;
  body: Buffer;
}

/** A minimal HTTP/1.1 response reader: the tests need the bytes exactly as sent. */
function readResponses(socket: net.Socket, methods: string[]): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const out: RawResponse[] = [];
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const blank = buffer.indexOf('\r\n\r\n');
        if (blank === -1) return;
        const [statusLine, ...lines] = buffer.toString('latin1', 0, blank).split('\r\n');
        const names = lines.map((l) => l.slice(0, l.indexOf(':')));
        const headers = Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        const status = Number(statusLine!.split(' ')[1]);
        const method = methods[out.length];
        const length = method === 'HEAD' || status === 304 ? 0 : Number(headers['content-length'] ?? 0);
        if (buffer.length < blank + 4 + length) return;
        out.push({ status, names, headers, body: buffer.subarray(blank + 4, blank + 4 + length) });
        buffer = buffer.subarray(blank + 4 + length);
        if (out.length === methods.length) {
          socket.off('data', onData);
          return resolve(out);
        }
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`connection closed after ${out.length} of ${methods.length} responses`)));
  });
}

const page = (text: string) => `<!doctype html><html><body>${`<p>${text}</p>`.repeat(60)}<script>go()</script></body></html>`;

describe('[SERVER][LANE] serving through the fast lane and node:http', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lane-'));
  fs.mkdirSync(path.join(dir, '_astro'));
  fs.writeFileSync(path.join(dir, 'index.html'), page('home'));
  fs.writeFileSync(path.join(dir, 'about.html'), page('about'));
  fs.writeFileSync(path.join(dir, '404.html'), page('missing'));
  fs.writeFileSync(path.join(dir, '_astro', 'app.abc.js'), 'console.log(1);'.repeat(60));
  fs.writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\n');
  let map: StaticMap;
  // Stands in for Astro: echoes what node:http parsed, so a request's path through the server shows.
  const astro: AstroHandler = async (req, res, next) => {
    if (req.url !== '/echo') return next?.();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    res.setHeader('content-type', 'text/plain');
    res.end(`${req.method} ${Buffer.concat(chunks).toString()}`);
  };
  const servers: http.Server[] = [];
  let lane = 0;
  let plain = 0;

  async function start(opts: { fastLane: boolean; trustProxy?: boolean }): Promise<number> {
    const server = createAppServer({ site: () => map, astro, ...opts });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as AddressInfo).port;
  }

  function connect(port: number): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
    });
  }

  async function exchange(port: number, requests: string, methods: string[]): Promise<RawResponse[]> {
    const socket = await connect(port);
    try {
      const responses = readResponses(socket, methods);
      socket.write(requests);
      return await responses;
    } finally {
      socket.destroy();
    }
  }

  beforeAll(async () => {
    await precompress(dir);
    map = await loadStaticSite(dir);
    lane = await start({ fastLane: true, trustProxy: true });
    plain = await start({ fastLane: false, trustProxy: true });
  });
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** One request to both servers: the lane must send what node:http sends. */
  async function compare(method: string, target: string, extra: string): Promise<void> {
    const request = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: test\r\n${extra}\r\n`;
    const [fast] = await exchange(lane, request, [method]);
    const [slow] = await exchange(plain, request, [method]);
    // node:http writes Date, Connection and Keep-Alive capitalised; the lane in lower case.
    expect(fast!.names).toContain('date');
    expect(slow!.names).toContain('Date');
    const { date: fastDate, ...fastHeaders } = fast!.headers;
    const { date: slowDate, ...slowHeaders } = slow!.headers;
    expect(Math.abs(Date.parse(fastDate!) - Date.parse(slowDate!))).toBeLessThanOrEqual(2_000);
    expect({ target, status: fast!.status, headers: fastHeaders }).toEqual({ target, status: slow!.status, headers: slowHeaders });
    expect(fast!.body.equals(slow!.body)).toBe(true);
  }

  it('answers exactly as node:http does: status, every header, body', async () => {
    const etag = map.get('/about')!.etag;
    const cases: [method: string, target: string, extra: string][] = [
      ['GET', '/about', 'Accept-Encoding: gzip, deflate, br\r\n'],
      ['GET', '/about?utm=x', 'Accept-Encoding: gzip\r\n'],
      ['GET', '/', ''],
      ['GET', '/about/', 'X-Forwarded-Proto: https\r\nAccept-Encoding: br\r\n'],
      ['HEAD', '/about', 'Accept-Encoding: br\r\n'],
      ['GET', '/about', `If-None-Match: ${etag}\r\n`],
      ['GET', '/about', `Accept-Encoding: br\r\nIf-None-Match: "other", W/${etag.slice(0, -1)}-br"\r\n`],
      ['GET', '/about', `Accept-Encoding: gzip\r\nIf-None-Match: ${etag.slice(0, -1)}-br"\r\n`],
      ['GET', '/about', 'Accept-Encoding: br;q=0, gzip\r\n'],
      ['GET', '/_astro/app.abc.js', 'Accept-Encoding: br\r\n'],
      ['GET', '/robots.txt', 'Accept-Encoding: gzip\r\n'],
    ];
    // node:http announces a keep-alive timeout in whole seconds, and none when it is 0.
    for (const keepAlive of [5_000, 1_500, 0]) {
      for (const s of servers) s.keepAliveTimeout = keepAlive;
      for (const [method, target, extra] of cases) {
        await compare(method, target, extra);
      }
    }
    for (const s of servers) s.keepAliveTimeout = 5_000;
  });

  it('differential fuzzing: for generated request heads the lane answers with the same status, headers and body as node:http', async () => {
    const etag = map.get('/about')!.etag;
    const token = (values: string[]) => fc.constantFrom(...values);
    const casing = (text: string) => fc.constantFrom(text, text.toUpperCase(), text.toLowerCase());
    const target = fc
      .tuple(
        token([
          '/',
          '/about',
          '/about/',
          '/About',
          '//about',
          '/about/..',
          '/about%2F',
          '/%61bout',
          '/robots.txt',
          '/_astro/app.abc.js',
          '/404',
          '/404.html',
          '/nowhere',
          '/api/x',
          '/about.html',
          '/\\about',
        ]),
        token(['', '?', '?a=1', '?a=1&b=%20', '#x', '?x=/../']),
      )
      .map(([p, q]) => p + q);
    const encodings = fc
      .tuple(
        fc.array(token(['gzip', 'br', 'deflate', 'identity', '*', 'GZIP', 'br;q=0', 'gzip;q=0.5', 'br; q=1.0', 'x-gzip', 'br;q=abc', '']), {
          maxLength: 4,
        }),
        token([', ', ',', ' ,  ']),
      )
      .map(([list, separator]) => list.join(separator));
    const ifNoneMatch = fc
      .array(token([etag, `W/${etag}`, `${etag.slice(0, -1)}-br"`, `${etag.slice(0, -1)}-gzip"`, '"other"', '*', 'W/"x"', 'garbage']), {
        minLength: 1,
        maxLength: 3,
      })
      .map((list) => list.join(', '));
    const header = fc.oneof(
      fc.tuple(casing('Accept-Encoding'), encodings),
      fc.tuple(casing('If-None-Match'), ifNoneMatch),
      fc.tuple(casing('X-Forwarded-Proto'), token(['https', 'http', 'HTTPS', 'https, http', ''])),
      fc.tuple(casing('Connection'), token(['keep-alive', 'close', 'Close', 'keep-alive, close', 'upgrade'])),
      fc.tuple(
        token(['Accept', 'Cookie', 'Referer', 'X-Custom', 'Range', 'If-Modified-Since', 'Cache-Control']),
        token(['*/*', 'a=b', 'bytes=0-10', 'no-cache', ' padded ', '']),
      ),
    );
    const request = fc.record({ method: token(['GET', 'HEAD', 'get', 'OPTIONS']), target, headers: fc.array(header, { maxLength: 5 }) });
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ method, target, headers }) => {
        tried++;
        const lines = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
        const raw = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines}\r\n`;
        const methods = [method.toUpperCase()];
        const [fast] = await exchange(lane, raw, methods).catch(() => [undefined]);
        const [slow] = await exchange(plain, raw, methods).catch(() => [undefined]);
        if (!fast || !slow) {
          expect({ raw, fast: Boolean(fast) }).toEqual({ raw, fast: Boolean(slow) });
          return;
        }
        // Requests the lane hands over are node:http's on both sides, each with its own random id.
        expect(fast.headers['x-request-id'] === undefined).toBe(slow.headers['x-request-id'] === undefined);
        const { date: _a, 'x-request-id': _c, ...fastHeaders } = fast.headers;
        const { date: _b, 'x-request-id': _d, ...slowHeaders } = slow.headers;
        expect({ raw, status: fast.status, headers: fastHeaders }).toEqual({ raw, status: slow.status, headers: slowHeaders });
        expect(fast.body.equals(slow.body)).toBe(true);
      }),
      { numRuns: 400 },
    );
    expect(tried).toBe(400);
  }, 60_000);

  it('answers pipelined requests in order, handing the connection to node:http at the first it does not take', async () => {
    const requests =
      'GET /about HTTP/1.1\r\nHost: a\r\n\r\n' +
      'HEAD / HTTP/1.1\r\nHost: a\r\n\r\n' +
      'POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello' +
      'GET /about HTTP/1.1\r\nHost: a\r\n\r\n' +
      'GET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n';
    const [about, head, echo, again, missing] = await exchange(lane, requests, ['GET', 'HEAD', 'POST', 'GET', 'GET']);
    expect(about!.names).toContain('date');
    expect(about!.body.toString()).toBe(page('about'));
    expect(head!.names).toContain('date');
    expect(head!.headers['content-length']).toBe(String(Buffer.byteLength(page('home'))));
    expect(echo!.body.toString()).toBe('POST hello');
    expect(again!.names).toContain('Date'); // node:http's from the hand-off on
    expect(again!.body.toString()).toBe(page('about'));
    expect(missing!.status).toBe(404);
    expect(missing!.body.toString()).toBe(page('missing'));
  });

  it('hands over a request whose body comes later, and one whose head comes in pieces', async () => {
    const socket = await connect(lane);
    try {
      const responses = readResponses(socket, ['GET', 'POST', 'GET']);
      socket.write('GET / HTTP/1.1\r\nHost: a\r\n\r\nPOST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 7\r\n\r\n');
      await new Promise((r) => setTimeout(r, 50));
      socket.write('pa');
      await new Promise((r) => setTimeout(r, 50));
      socket.write('tientGET /ab');
      await new Promise((r) => setTimeout(r, 50));
      socket.write('out HTTP/1.1\r\nHost: a\r\n\r\n');
      const [home, echo, about] = await responses;
      expect(home!.body.toString()).toBe(page('home'));
      expect(echo!.body.toString()).toBe('POST patient');
      expect(about!.body.toString()).toBe(page('about'));
    } finally {
      socket.destroy();
    }
  });

  it('does not queue responses for a client that sends but does not read', async () => {
    const server = servers[0]!;
    const accepted = new Promise<net.Socket>((r) => server.once('connection', r));
    const socket = await connect(lane);
    const serverSide = await accepted;
    socket.pause();
    // 20,000 pipelined GETs: some 30 MB of responses if all were answered at once.
    socket.write('GET /about HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(20_000));
    await new Promise((r) => setTimeout(r, 300));
    expect(serverSide.writableLength).toBeLessThan(1024 * 1024);
    socket.destroy();
  });

  it('leaves what is unusual to node:http, which refuses what is malformed or ambiguous', async () => {
    const [twoHosts] = await exchange(lane, 'GET /about HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', ['GET']);
    expect(twoHosts!.names).toContain('Date');
    const smuggle = 'GET /about HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n';
    const [ambiguous] = await exchange(lane, smuggle, ['GET']);
    expect(ambiguous!.status).toBe(400);
    const [huge] = await exchange(lane, `GET /about HTTP/1.1\r\nHost: a\r\nX-A: ${'a'.repeat(20_000)}\r\n\r\n`, ['GET']);
    expect(huge!.status).toBe(431);
  });

  it('answers 405 to other methods on a page, 404 to dot segments and to the not-found page itself', async () => {
    for (const port of [lane, plain]) {
      const [post] = await exchange(port, 'POST /about HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}', ['POST']);
      expect(post!.status).toBe(405);
      expect(post!.headers.allow).toBe('GET, HEAD');
      expect(JSON.parse(post!.body.toString())).toEqual({ message: 'Method not allowed' });
      for (const target of ['/404', '/404.html', '/about/..', '/..', '/%2e%2e/about', '/./about']) {
        const [res] = await exchange(port, `GET ${target} HTTP/1.1\r\nHost: a\r\n\r\n`, ['GET']);
        expect({ target, status: res!.status }).toEqual({ target, status: 404 });
        expect(res!.body.toString()).toBe(page('missing'));
      }
    }
  });

  it('closes after a response when the client asks, and closes idle connections on timeout and on server close', async () => {
    const socket = await connect(lane);
    const ended = new Promise((r) => socket.once('end', r));
    const responses = readResponses(socket, ['GET']);
    socket.write('GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    const [closing] = await responses;
    expect(closing!.headers.connection).toBe('close');
    await ended;
    socket.destroy();
    // A client that resets the connection after such a response must not take the server down.
    for (let i = 0; i < 20; i++) {
      const rude = await connect(lane);
      const got = readResponses(rude, ['GET']);
      rude.write('GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
      await got;
      rude.resetAndDestroy();
    }
    await new Promise((r) => setTimeout(r, 100));
    expect((await exchange(lane, 'GET / HTTP/1.1\r\nHost: a\r\n\r\n', ['GET']))[0]!.status).toBe(200);

    const server = createAppServer({ site: () => map, astro });
    server.keepAliveTimeout = 300;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const idle = await connect(port);
    const idleClosed = new Promise((r) => idle.once('close', r));
    await (async () => {
      const p = readResponses(idle, ['GET']);
      idle.write('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
      return p;
    })();
    const started = Date.now();
    await idleClosed;
    expect(Date.now() - started).toBeLessThan(2_000);

    server.headersTimeout = 300;
    const silent = await connect(port);
    const silentClosed = new Promise((r) => silent.once('close', r));
    const connected = Date.now();
    await silentClosed;
    expect(Date.now() - connected).toBeLessThan(2_000);

    server.keepAliveTimeout = 60_000;
    server.headersTimeout = 60_000;
    const open = await connect(port);
    const p = readResponses(open, ['GET']);
    open.write('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
    await p;
    const closed = new Promise<void>((r) => server.close(() => r()));
    const before = Date.now();
    await closed;
    expect(Date.now() - before).toBeLessThan(1_000);
    open.destroy();
  });
});
