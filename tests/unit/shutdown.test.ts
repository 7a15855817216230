import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { drainAndClose } from '../../scripts/shutdown';

/** A server whose /slow answers after `ms`; records the order of events. */
async function slowServer(ms: number, events: string[]) {
  const server = http.createServer((req, res) => {
    events.push(`start ${req.url}`);
    setTimeout(() => {
      events.push(`answer ${req.url}`);
      res.end('done');
    }, ms);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('[OPS][STOP] graceful shutdown', () => {
  it('requests in flight finish before the workers stop and the database closes; new connections are refused', async () => {
    const events: string[] = [];
    const { server, url } = await slowServer(600, events);
    // An idle kept-alive connection must not hold the stop up.
    await (await fetch(`${url}/warm`)).text();
    const inFlight = fetch(`${url}/slow`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    const stopped = drainAndClose(server, [
      { name: 'mail worker', run: async () => void events.push('mail worker stopped') },
      { name: 'database', run: async () => void events.push('database closed') },
    ]);
    await new Promise((r) => setTimeout(r, 50));
    await expect(fetch(`${url}/late`)).rejects.toThrow();
    expect(await inFlight).toBe('done');
    await stopped;
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(events.filter((e) => !e.includes('/warm'))).toEqual(['start /slow', 'answer /slow', 'mail worker stopped', 'database closed']);
  });

  it('a request that outlives the drain time is cut, and the stop still completes', async () => {
    const events: string[] = [];
    const { server, url } = await slowServer(30_000, events);
    const stuck = fetch(`${url}/stuck`).catch(() => 'cut');
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await drainAndClose(server, [{ name: 'database', run: async () => void events.push('database closed') }], 500);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await stuck).toBe('cut');
    expect(events).toEqual(['start /stuck', 'database closed']);
  });
});
