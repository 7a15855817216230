/**
 * Request bodies are capped while they stream in, on every endpoint: an oversized or endless
 * body is refused with 413 without being held in memory, and nothing is stored.
 */
import http from 'node:http';
import net from 'node:net';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactSubmissions } from '#server/db/schema/index.ts';
import { TEST_ADMIN, signIn, startTestServer, type TestServer } from './helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 180_000);
afterAll(() => server?.close());

/**
 * Streams `total` bytes of a JSON string value in chunks, without a Content-Length, until the
 * server answers. `reset`: the server closed the connection before its answer was read here (it
 * stops reading an oversized body).
 */
function streamBody(
  pathname: string,
  total: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; sent: number; reset: boolean }> {
  const url = new URL(pathname, server.url);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const req = http.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, 'transfer-encoding': 'chunked', ...headers },
    });
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sent, reset: false }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (answered) return;
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET') resolve({ status: 0, body: '', sent, reset: true });
      else reject(err);
    });
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(sent === chunk.length ? Buffer.concat([Buffer.from('{"message":"'), chunk]) : chunk))
          return void req.once('drain', pump);
      }
      if (!answered) req.end('"}');
    };
    pump();
  });
}

/**
 * Sends an endless chunked body at a steady 640 KB/s on a raw socket, whatever the server answers,
 * until the server closes the connection or `deadlineMs` passes. What the server says, when it
 * closed (ms after its answer), and how much body went out.
 */
function endlessBody(pathname: string, deadlineMs: number): Promise<{ head: string; sent: number; closedAfterAnswerMs: number | null }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let head = '';
    let sent = 0;
    let answeredAt: number | null = null;
    const frame = Buffer.concat([Buffer.from('4000\r\n'), Buffer.alloc(0x4000, 'a'), Buffer.from('\r\n')]);
    const finish = (closedAt: number | null) => {
      clearInterval(pump);
      clearTimeout(deadline);
      socket.destroy();
      resolve({ head, sent, closedAfterAnswerMs: closedAt !== null && answeredAt !== null ? closedAt - answeredAt : null });
    };
    socket.on('connect', () =>
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n`,
      ),
    );
    socket.on('data', (d: Buffer) => {
      answeredAt ??= Date.now();
      head += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(Date.now()));
    // 16 KB every 25 ms.
    const pump = setInterval(() => {
      if (socket.writable) socket.write(frame, () => (sent += 0x4000));
    }, 25);
    const deadline = setTimeout(() => finish(null), deadlineMs);
  });
}

const submissions = async () => (await server.db.select({ n: count() }).from(contactSubmissions))[0]!.n;

describe('[SECURITY] request body limits', { timeout: 120_000 }, () => {
  it('[SECURITY][BODY]: a declared Content-Length over the limit gets 413 before anything is read', async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(new URL('/api/contact', server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url, 'content-length': String(300 * 1024 * 1024) },
      });
      req.on('response', resolve);
      req.on('error', reject);
      req.write('{"name":"');
    });
    expect(res.statusCode).toBe(413);
    res.resume();
  });

  it('[SECURITY][BODY]: an endless chunked body is refused with 413 and cut off without being held in memory, and nothing is stored', async () => {
    const before = await submissions();
    const rss = process.memoryUsage().rss;
    let peak = rss;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    // "Endless": far more than the server could hold (one string is at most about 512 MB), and
    // more than a fast machine sends in the two seconds before the cut.
    const total = 8 * 1024 * 1024 * 1024;
    const result = await streamBody('/api/contact', total).finally(() => clearInterval(timer));
    // The answer is a 413, unless the connection was already closed on the sender mid-body.
    if (!result.reset) expect(JSON.parse(result.body)).toEqual({ message: 'Request body is too large' });
    expect(result.reset || result.status === 413).toBe(true);
    // The server stops reading two seconds after its answer: the sender never gets to the end.
    expect(result.sent).toBeLessThan(total);
    // What was read is dropped as it arrives. The resident size still grows with what was sent
    // before the cut (the allocator keeps the pages of chunks already dropped: 0.7 to 1.1 times
    // the bytes in CI), so the bound is loose; what it rules out is a body held with its string.
    console.log(
      `endless body: ${Math.round(result.sent / 1048576)} MB sent before the cut; resident size grew by ${Math.round((peak - rss) / 1048576)} MB`,
    );
    expect(peak - rss).toBeLessThan(result.sent + 256 * 1024 * 1024);
    expect(await submissions()).toBe(before);
  });

  it.each([
    ['/about', 'a page'],
    ['/api/documents', 'an endpoint that refuses anonymous callers'],
    ['/no-such-page', 'an unknown path'],
  ])(
    '[SECURITY][BODY]: a body nobody reads (POST %s, %s) is cut within 2 s of the answer, having been read for at most 1 MB, with Connection: close',
    async (pathname) => {
      const result = await endlessBody(pathname, 6_000);
      expect(result.head).toMatch(/^HTTP\/1\.1 4\d\d /);
      expect(result.head.toLowerCase()).toContain('connection: close');
      expect(result.closedAfterAnswerMs, 'the connection was still open 6 s after the request began').not.toBeNull();
      expect(result.closedAfterAnswerMs!).toBeLessThan(2_000);
      expect(result.sent).toBeLessThanOrEqual(1024 * 1024);
    },
  );

  it.each(['/api/upload/image', '/api/documents', '/about'])(
    '[RELIABILITY][BODY]: an early answer to POST %s reaches a client that reads it only after half a second, still sending its body',
    async (pathname) => {
      const { hostname, port } = new URL(server.url);
      const head = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(port), hostname);
        let got = '';
        const frame = Buffer.concat([Buffer.from('4000\r\n'), Buffer.alloc(0x4000, 'a'), Buffer.from('\r\n')]);
        socket.on('connect', () => {
          socket.write(
            `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n`,
          );
          // A busy client: it goes on sending, and reads nothing for half a second.
          socket.pause();
          const pump = setInterval(() => socket.writable && socket.write(frame), 10);
          setTimeout(() => clearInterval(pump), 400);
          setTimeout(() => socket.resume(), 500);
        });
        socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
        socket.on('error', () => {});
        socket.on('close', () => resolve(got));
      });
      expect(head).toMatch(/^HTTP\/1\.1 4\d\d /);
    },
  );

  it("[RELIABILITY][BODY]: an early answer reaches Node's fetch still sending its body: 40 anonymous 2 MB uploads get their 401, three signed-in 30 MB uploads their 413", async () => {
    const upload = (bytes: number, cookie?: string) => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.alloc(bytes, 7)], { type: 'image/png' }), 'photo.png');
      return fetch(`${server.url}/api/upload/image`, {
        method: 'POST',
        body: form,
        headers: { origin: server.url, ...(cookie ? { cookie } : {}) },
      });
    };
    const statuses: (number | string)[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push(
        await upload(2 * 1024 * 1024).then(
          (r) => r.status,
          (err: Error) => String(err.cause ?? err),
        ),
      );
    expect(statuses).toEqual(Array(40).fill(401));
    const cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
    for (let i = 0; i < 3; i++) {
      const answer = await upload(30 * 1024 * 1024, cookie).then(
        async (r) => [r.status, ((await r.json()) as { message: string }).message],
        (err: Error) => [String(err.cause ?? err)],
      );
      expect(answer).toEqual([413, 'File is too large. Maximum size is 5MB.']);
    }
  });

  it('[SECURITY][BODY]: the sign-in endpoint is capped the same way', async () => {
    const result = await streamBody('/api/login', 5 * 1024 * 1024);
    expect(result.reset || result.status === 413).toBe(true);
  });

  it('[SECURITY][BODY]: a body just under the limit is still read and judged on its content', async () => {
    const res = await server.request('/api/contact', {
      method: 'POST',
      json: { name: 'A', email: 'a@example.com', message: 'x'.repeat(900 * 1024) },
    });
    expect(res.status).toBe(400);
  });
});
