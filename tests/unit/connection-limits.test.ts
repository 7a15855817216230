import type http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServer, type AstroHandler } from '#server/web/app-server.ts';
import { defaultConnectionLimits, type ConnectionLimits } from '#server/connection-limits.ts';

const astro: AstroHandler = async (_req, res) => {
  res.end('ok');
};

let server: http.Server | undefined;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
  server = undefined;
});

async function start(limits: ConnectionLimits): Promise<number> {
  server = createAppServer({ astro, site: () => new Map(), connectionLimits: limits });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** An idle connection from `localAddress`; resolves once connected. */
function open(port: number, localAddress = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host: '127.0.0.1', localAddress }, () => resolve(s));
    s.on('error', reject);
    sockets.push(s);
  });
}

/** What the server does with a request on this socket: its answer, or 'closed'. */
function ask(s: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    s.on('data', (d) => {
      text += d.toString('latin1');
      if (text.includes('\r\n\r\n')) resolve(text.split('\r\n')[0]!);
    });
    s.on('close', () => resolve(text ? text.split('\r\n')[0]! : 'closed'));
    s.on('error', () => resolve('closed'));
    s.write('GET /api/x HTTP/1.1\r\nHost: a\r\n\r\n');
  });
}

describe('[SERVER][LIMITS] open connections', { timeout: 20_000 }, () => {
  it('one address gets at most perClient sockets; another address is still served; a closed socket frees its place', async () => {
    const port = await start({ total: 100, perClient: 5 });
    const held = await Promise.all(Array.from({ length: 5 }, () => open(port)));
    const sixth = await open(port);
    expect(await ask(sixth)).toBe('closed');
    expect(await ask(await open(port, '127.0.0.2'))).toBe('HTTP/1.1 200 OK');
    held[0]!.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect(await ask(await open(port))).toBe('HTTP/1.1 200 OK');
  });

  it('the total cap holds across addresses', async () => {
    const port = await start({ total: 6, perClient: 0 });
    await Promise.all([...Array.from({ length: 3 }, () => open(port)), ...Array.from({ length: 3 }, () => open(port, '127.0.0.3'))]);
    expect(await ask(await open(port, '127.0.0.4'))).toBe('closed');
  });

  it('defaults: three quarters of the open-file limit in total; no per-client cap behind a trusted proxy (all sockets are the proxy)', () => {
    const direct = defaultConnectionLimits(false);
    expect(direct.perClient).toBe(128);
    expect(direct.total).toBeGreaterThanOrEqual(64);
    expect(defaultConnectionLimits(true).perClient).toBe(0);
  });
});
