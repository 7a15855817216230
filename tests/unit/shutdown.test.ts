import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackInFlight } from '#server/in-flight.ts';
import { drainAndClose } from '#server/shutdown.ts';

/** A server (tracked as the app server is) whose requests answer after `ms`; records the order of events. */
async function slowServer(ms: number, events: string[]) {
  const server = http.createServer((req, res) => {
    events.push(`start ${req.url}`);
    setTimeout(() => {
      events.push(`answer ${req.url}`);
      res.end('done');
    }, ms);
  });
  trackInFlight(server);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Resolves once the server has accepted the request (a fixed sleep is not enough on a busy machine). */
async function accepted(events: string[], path: string) {
  while (!events.includes(`start ${path}`)) await new Promise((r) => setTimeout(r, 5));
}

/** A GET on a connection of its own: the error code, or 'answered'. */
function newConnection(url: string): Promise<string> {
  return new Promise((resolve) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        resolve('answered');
      })
      .on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

// Both cores kept busy for the whole file, as on a CI machine running two suites side by side.
// Each busy loop also ends once its parent is gone (a run stopped with Ctrl-C or killed never
// reaches afterAll), so an interrupted run leaves no process spinning.
const BUSY = 'const parent = process.ppid; for (;;) { for (let i = 0; i < 1e7; i++); if (process.ppid !== parent) process.exit(); }';
let hogs: ChildProcess[] = [];
beforeAll(() => {
  hogs = [0, 1].map(() => spawn(process.execPath, ['-e', BUSY], { stdio: 'ignore' }));
});
afterAll(() => {
  for (const h of hogs) h.kill('SIGKILL');
});

/** One stop with a kept-alive idle connection and a request in flight; returns the events. */
async function stopWithOneInFlight(ms: number) {
  const events: string[] = [];
  const { server, url } = await slowServer(ms, events);
  // An idle kept-alive connection must not hold the stop up.
  await (await fetch(`${url}/warm`)).text();
  const inFlight = fetch(`${url}/slow`).then(async (r) => ({ connection: r.headers.get('connection'), body: await r.text() }));
  await accepted(events, '/slow');
  const started = Date.now();
  // The idle connection's grace is longer than the server's: on a machine this busy, the client's
  // next request can take longer than half a second to go out, and this test is about what the
  // server answers it (the server uses the connection once, then it is closed and the stop ends).
  const stopped = drainAndClose(
    server,
    [
      { name: 'mail worker', run: async () => void events.push('mail worker stopped') },
      { name: 'database', run: async () => void events.push('database closed') },
    ],
    8_000,
    4_000,
    5_000,
  );
  await new Promise((r) => setTimeout(r, 20));
  // A new connection is refused; a request on the kept-alive idle one is still answered, closing it.
  await expect(newConnection(`${url}/late`)).resolves.toBe('ECONNREFUSED');
  const onIdle = await fetch(`${url}/on-idle`);
  expect(onIdle.headers.get('connection')).toBe('close');
  await onIdle.text();
  const answer = await inFlight;
  await stopped;
  return {
    answer,
    tookMs: Date.now() - started,
    events: events
      .filter((e) => !e.startsWith('start /') || e === 'start /slow')
      .filter((e) => !e.startsWith('answer /') || e === 'answer /slow'),
  };
}

describe('[OPS][STOP] graceful shutdown', () => {
  it('requests in flight finish (told the connection closes) before the workers stop and the database closes; new connections are refused', async () => {
    const { answer, tookMs, events } = await stopWithOneInFlight(600);
    expect(answer).toEqual({ connection: 'close', body: 'done' });
    expect(tookMs).toBeLessThan(3_000);
    expect(events).toEqual(['start /slow', 'answer /slow', 'mail worker stopped', 'database closed']);
  });

  it('the same stop passes 20 times in a row with both cores busy', { timeout: 60_000 }, async () => {
    for (let i = 0; i < 20; i++) {
      const { answer, events } = await stopWithOneInFlight(150);
      expect(answer.body, `run ${i}`).toBe('done');
      expect(events, `run ${i}`).toEqual(['start /slow', 'answer /slow', 'mail worker stopped', 'database closed']);
    }
  });

  it('kept-alive clients busy during the stop are answered or refused a new connection, never reset', { timeout: 30_000 }, async () => {
    const events: string[] = [];
    const { server, url } = await slowServer(20, events);
    const outcomes: string[] = [];
    const client = async (n: number) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = 0; ; i++) {
          const result = await new Promise<string>((resolve) => {
            http
              .get(`${url}/c${n}-${i}`, { agent }, (res) => {
                res.resume();
                res.on('end', () => resolve('answered'));
                res.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
              })
              .on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
          });
          if (result !== 'answered') {
            outcomes.push(result);
            return;
          }
        }
      } finally {
        agent.destroy();
      }
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));
    while (events.length < 40) await new Promise((r) => setTimeout(r, 5));
    await drainAndClose(server, []);
    await Promise.all(clients);
    // Each client ends when its next connection is refused (the listener is closed): no reset, no hang-up.
    expect(outcomes).toEqual(Array(8).fill('ECONNREFUSED'));
  });

  it('a request that outlives the drain time is cut, and the stop still completes', async () => {
    const events: string[] = [];
    const { server, url } = await slowServer(30_000, events);
    const stuck = fetch(`${url}/stuck`).catch(() => 'cut');
    await accepted(events, '/stuck');
    const started = Date.now();
    await drainAndClose(server, [{ name: 'database', run: async () => void events.push('database closed') }], 500);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await stuck).toBe('cut');
    expect(events).toEqual(['start /stuck', 'database closed']);
  });

  it('a step that hangs (a database that is gone) does not hold the stop; the steps after it still run', async () => {
    const events: string[] = [];
    const { server } = await slowServer(10, events);
    const started = Date.now();
    await drainAndClose(
      server,
      [
        { name: 'mail worker', run: () => new Promise(() => events.push('mail worker hangs')) },
        { name: 'database', run: () => new Promise(() => events.push('database hangs')) },
        { name: 'last', run: async () => void events.push('last step ran') },
      ],
      8_000,
      1_000,
    );
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1_000);
    expect(took).toBeLessThan(3_000);
    expect(events).toEqual(['mail worker hangs', 'database hangs', 'last step ran']);
  });
});
