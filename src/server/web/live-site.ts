import { contentChanged } from '../content/generation';
import type { StaticFile, StaticMap } from './static-site';

/*
 * The live release, held in memory. The publisher (publish/go-live.ts) hands over a finished
 * release: its description and its files, already read. A swap replaces the map reference in one
 * assignment, so each request sees either the old release or the new one, never a mix and never a
 * missing page. Hashed assets of earlier releases stay for a grace period for pages already open
 * in browsers. This module knows nothing of how releases are made.
 */

/** A finished release as the publisher describes it (its release.json). */
export interface ReleaseInfo {
  id: string;
  contentHash: string;
  codeVersion: string;
  builtAt: string;
  /**
   * From the start of the build until the release could be served (its new pages rendered,
   * written and checked); linking the pages it kept from the previous release comes after, and
   * the compressed copies of its new pages once it is live (publish/go-live.ts).
   */
  durationMs: number;
  /** Of which rendering and writing the pages (the rest: checking them). */
  astroMs?: number;
  pages: number;
}

const ASSET_GRACE_MS = 10 * 60 * 1000;
type State = {
  map: StaticMap;
  release: ReleaseInfo | null;
  /** Assets no longer in the live release → when they left it. */
  retired: Map<string, { file: StaticFile; since: number }>;
};
const live: State = { map: new Map(), release: null, retired: new Map() };

export function liveSite(): StaticMap {
  return live.map;
}

export function liveRelease(): ReleaseInfo | null {
  return live.release;
}

/** Makes `files` (the release `info`, read into memory) the pages visitors get, from the next request on. */
export function serveRelease(info: ReleaseInfo, files: StaticMap): void {
  const now = Date.now();
  for (const [key, file] of live.map) {
    if (key.startsWith('/_astro/') && !files.has(key)) live.retired.set(key, { file, since: now });
  }
  for (const [key, { file, since }] of live.retired) {
    if (files.has(key) || now - since > ASSET_GRACE_MS) live.retired.delete(key);
    else files.set(key, file);
  }
  live.map = files;
  live.release = info;
  contentChanged();
}
