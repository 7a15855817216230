import { getDb } from '../db/client';
import { log } from '../log';
import { publishRelease } from '../web/live-site';

/*
 * Publishing trigger. Every write that changes a public page calls `requestPublish`; the
 * publisher started by the server (scripts/start.ts) coalesces requests into builds: requests
 * during a build cause exactly one more build after it. Without a started publisher (unit and
 * integration tests of other features) a request is only logged.
 */
type Runner = { request(reason: string): void };
const KEY = Symbol.for('procurement.publisher');
const g = globalThis as unknown as Record<symbol, Runner | undefined>;

export function requestPublish(reason: string): void {
  const runner = g[KEY];
  if (runner) runner.request(reason);
  else log.debug('publish requested (no publisher running)', { reason });
}

/** Starts the in-process publisher: one build at a time, coalescing, debounced by `delayMs`. */
export function startPublisher(opts: { delayMs?: number } = {}): Runner {
  const delayMs = opts.delayMs ?? 200;
  let building = false;
  let pending = false;
  let timer: NodeJS.Timeout | undefined;

  const run = async () => {
    timer = undefined;
    if (building) {
      pending = true;
      return;
    }
    building = true;
    pending = false;
    try {
      await publishRelease(await getDb());
    } catch (err) {
      log.error('publish failed; the previous release stays live', { err });
    } finally {
      building = false;
      if (pending) schedule();
    }
  };
  const schedule = () => {
    if (building) {
      pending = true;
      return;
    }
    if (!timer) timer = setTimeout(() => void run(), delayMs);
  };
  const runner: Runner = { request: () => schedule() };
  g[KEY] = runner;
  return runner;
}
