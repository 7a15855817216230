/*
 * A counter of changes to what visitors see: bumped by every write that asks for a publish
 * (content/changes.ts `recordChange`), by a release going live (live-site.ts) and by another
 * instance's publish (follower.ts). Answers kept in memory for visitors (web/public-api-cache.ts)
 * are only served while the counter is what it was when they were made.
 */
let generation = 0;

export function contentGeneration(): number {
  return generation;
}

export function contentChanged(): void {
  generation++;
}
