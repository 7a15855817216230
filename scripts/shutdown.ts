import type http from 'node:http';
import { log } from '#server/log.ts';

/**
 * A graceful stop: the listener closes at once (no new connections), idle keep-alive
 * connections are closed, requests in flight get up to `drainMs` to finish (then their
 * connections are cut), and only then do the background workers stop and the database close,
 * so no answered request lost its write. Resolves when everything is closed.
 */
export async function drainAndClose(
  server: http.Server,
  steps: { name: string; run: () => Promise<unknown> }[],
  drainMs = 8_000,
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A kept-alive connection that finishes its request is closed by node:http once the listener is closed.
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), drainMs)));
  if ((await Promise.race([closed.then(() => 'drained' as const), late])) === 'late') {
    log.warn('requests still running after the drain time; closing their connections', { drainMs });
    server.closeAllConnections();
    await closed;
  }
  clearTimeout(timer);
  clearInterval(idle);
  for (const step of steps) await step.run().catch((err: unknown) => log.error(`${step.name} failed`, { err }));
}
