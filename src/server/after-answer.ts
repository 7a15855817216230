/**
 * Work a request leaves for after its answer: what it passes to `afterAnswer` runs once the
 * response has been handed to the socket (or the client went away), so how long the answer took
 * cannot tell anyone what that work found. The server runs each request it gives Astro inside
 * `answering` (web/app-server.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';

const later = new AsyncLocalStorage<(() => void)[]>();

/** Runs `handle` for `res`: what it leaves with `afterAnswer` runs once `res` has closed. */
export function answering<T>(res: ServerResponse, handle: () => T): T {
  const queue: (() => void)[] = [];
  res.once('close', () => {
    for (const run of queue.splice(0)) run();
  });
  return later.run(queue, handle);
}

/** Runs `run` after this request's answer; outside a request, on the next turn of the event loop. */
export function afterAnswer(run: () => void): void {
  const queue = later.getStore();
  if (queue) queue.push(run);
  else setImmediate(run);
}
