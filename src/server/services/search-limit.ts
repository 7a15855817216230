import { HttpError } from '../http';

/*
 * How often one client may search: a visitor typing (the box waits 150 ms after the last key)
 * asks a few times a second at most, for a few seconds; a script asking hundreds of times a
 * minute only loads the database. Counted in this process's memory (fixed one-minute windows per
 * client address): a search is a read that changes nothing, so it is not worth a database write,
 * and behind a fleet each instance counts its own share.
 */
export const SEARCHES_PER_MINUTE = 300;
const WINDOW_MS = 60_000;
/** Clients remembered at most; past it the oldest windows are dropped first (Map keeps insertion order). */
const MAX_CLIENTS = 10_000;

const windows = new Map<string, { start: number; count: number }>();

/** Forgets every client's count (bundle-api.ts `startAfresh`). */
export function forgetSearchCounts(): void {
  windows.clear();
}

/** Counts a search by `client`; past the limit, 429 with Retry-After. */
export function countSearch(client: string, now = Date.now()): void {
  let w = windows.get(client);
  if (!w || now - w.start >= WINDOW_MS) {
    windows.delete(client);
    w = { start: now, count: 0 };
    windows.set(client, w);
    if (windows.size > MAX_CLIENTS) windows.delete(windows.keys().next().value!);
  }
  w.count += 1;
  if (w.count > SEARCHES_PER_MINUTE) {
    const retry = Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
    throw new HttpError(429, 'Too many searches. Please wait a minute and try again.', { 'retry-after': String(retry) });
  }
}
