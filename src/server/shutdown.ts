import type http from 'node:http';
import net from 'node:net';
import { log } from './log';
import { closeAfterAnswers } from './in-flight';

/**
 * How long a kept-alive connection that is idle when the stop begins may still bring a request
 * (answered with `Connection: close`) before it is closed: a client may be sending on it that very
 * moment, and closing it under that request is what the client sees as a reset.
 */
const IDLE_GRACE_MS = 500;

/** Once the steps' shared time is spent, each remaining step still gets this long. */
const STEP_FLOOR_MS = 250;

/**
 * A graceful stop: the listener closes at once (no new connections); every answer, those in
 * flight included, says `Connection: close`, so a kept-alive client opens no further request on
 * its connection; connections still idle after a short grace are closed; requests in flight get
 * up to `drainMs` to finish (then their connections are cut); only then do the background workers
 * stop and the database close, so no answered request lost its write. The steps together get up to
 * `stepsMs`; one that does not finish by then is logged and left behind. Resolves when all is closed
 * or given up on.
 */
export async function drainAndClose(
  server: http.Server,
  steps: { name: string; run: () => Promise<unknown> }[],
  drainMs = 8_000,
  stepsMs = 4_000,
  idleGraceMs = IDLE_GRACE_MS,
): Promise<void> {
  closeAfterAnswers(server);
  // The listener alone: node:http's own close() would also drop every idle connection at once.
  const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
  let idle: NodeJS.Timeout | undefined;
  const grace = setTimeout(
    () => {
      server.closeIdleConnections();
      idle = setInterval(() => server.closeIdleConnections(), 100);
    },
    Math.min(idleGraceMs, drainMs),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), drainMs)));
  if ((await Promise.race([closed.then(() => 'drained' as const), late])) === 'late') {
    log.warn('requests still running after the drain time; closing their connections', { drainMs });
    server.closeAllConnections();
    await closed;
  }
  clearTimeout(timer);
  clearTimeout(grace);
  clearInterval(idle);
  // node:http's own close, now only to stop its connection-checking timer (the listener is closed).
  server.close(() => {});
  // A step that hangs (the database gone, say) must not hold the stop: all steps share `stepsMs`,
  // and each is still started and given at least a moment once that time is spent.
  const deadline = Date.now() + stepsMs;
  for (const step of steps) {
    let wait: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      step.run().then(
        () => 'done' as const,
        (err: unknown) => void log.error(`${step.name} failed`, { err }),
      ),
      new Promise<'late'>((resolve) => (wait = setTimeout(() => resolve('late'), Math.max(STEP_FLOOR_MS, deadline - Date.now())))),
    ]);
    clearTimeout(wait);
    if (outcome === 'late') log.warn(`${step.name} did not finish in time; going on`, { stepsMs });
  }
}
