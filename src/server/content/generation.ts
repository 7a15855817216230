/*
 * A counter of changes to what visitors see: bumped by every write that asks for a publish
 * (content/changes.ts `recordChange`), by a release going live (live-site.ts) and by another
 * instance's publish (follower.ts). Answers kept in memory for visitors (web/public-api-cache.ts)
 * are only served while the counter is what it was when they were made. It lives on globalThis:
 * the server bundle and the process that loads it each have their own copy of this module.
 */
const KEY = Symbol.for('procurement.contentGeneration');
const g = globalThis as unknown as Record<symbol, number | undefined>;

export function contentGeneration(): number {
  return g[KEY] ?? 0;
}

export function contentChanged(): void {
  g[KEY] = contentGeneration() + 1;
}
