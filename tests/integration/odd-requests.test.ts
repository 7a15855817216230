/**
 * Requests no browser sends still get a plain 4xx, never a 500 or a stack trace: odd request
 * targets through the real server, on a raw socket (fetch would normalise them).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 180_000);
afterAll(() => server?.close());

/** Sends one raw request and reads the answer until the server closes or the head and body arrived. */
function raw(head: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`${head}\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.on('error', reject);
  });
}

describe('[SECURITY] odd request targets', () => {
  it.each([
    ['GET //about HTTP/1.1', 404],
    ['GET //api/user HTTP/1.1', 404],
    ['GET /about#x HTTP/1.1', 400],
    ['POST /api/contact#x HTTP/1.1', 400],
    ['OPTIONS * HTTP/1.1', 400],
    ['GET http://evil.example/about HTTP/1.1', 400],
  ])('[SECURITY][TARGET]: %s answers %i without a trace', async (head, status) => {
    const res = await raw(head);
    expect(res.status).toBe(status);
    expect(res.text).not.toMatch(/\bat .*\.(?:js|ts|mjs):\d+/);
    expect(res.text).not.toMatch(/Error:/);
  });

  it.each([
    ['GET / HTTP/1.1\r\nHost: evil.example', 'a page'],
    ['GET /api/content/header/active HTTP/1.1\r\nHost: evil.example', 'a public endpoint'],
    ['POST /api/contact HTTP/1.1\r\nhost: evil.example\r\nContent-Length: 0', 'a form post'],
  ])('[SECURITY][HOST]: a request with two Host headers is refused with 400 (%#: %s)', async (head) => {
    const res = await raw(head);
    expect(res.status).toBe(400);
    expect(res.text).toContain('"message":"Bad request"');
    expect(res.text).not.toContain('evil.example');
  });

  it('[SECURITY][HOST]: one Host header is served as before', async () => {
    expect((await raw('GET /api/content/header/active HTTP/1.1')).status).toBe(200);
  });

  it('[VISITS]: the path where a trusted proxy reports page views is an unknown page to anyone else (no proxy here)', async () => {
    const res = await raw('GET /.count-view HTTP/1.1\r\nX-Original-URI: /\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0');
    expect(res.status).toBe(404);
  });
});
