import type { Db } from '../db/client';
import { snapshotContent } from '../content/site-content';
import { log } from '../log';
import {
  activateRelease,
  buildRelease,
  codeVersion,
  contentHash,
  currentRelease,
  pruneReleases,
  releaseClientDir,
  type ReleaseInfo,
} from '../publish/releases';
import { loadStaticSite, type StaticMap } from './static-site';

/*
 * The live release, held in memory. A swap replaces the map reference in one assignment, so each
 * request sees either the old release or the new one, never a mix. Hashed assets of the previous
 * release stay for pages already open in browsers.
 */
const KEY = Symbol.for('procurement.liveSite');
type State = { map: StaticMap; release: ReleaseInfo | null };
function state(): State {
  const g = globalThis as unknown as Record<symbol, State>;
  g[KEY] ??= { map: new Map(), release: null };
  return g[KEY];
}

export function liveSite(): StaticMap {
  return state().map;
}

export function liveRelease(): ReleaseInfo | null {
  return state().release;
}

async function load(info: ReleaseInfo): Promise<void> {
  const next = await loadStaticSite(releaseClientDir(info.id));
  for (const [key, file] of state().map) {
    if (key.startsWith('/_astro/') && !next.has(key)) next.set(key, file);
  }
  state().map = next;
  state().release = info;
}

/** Builds, checks, activates and loads a release of the database's current content. */
export async function publishRelease(db: Db): Promise<ReleaseInfo> {
  const content = await snapshotContent(db);
  const info = await buildRelease(content);
  await activateRelease(info.id);
  await load(info);
  log.info('published', { release: info.id, durationMs: info.durationMs, pages: info.pages });
  pruneReleases().catch((err) => log.warn('pruning old releases failed', { err }));
  return info;
}

/** At start: reuse the current release when it was built from this content by this code, else build. */
export async function ensureRelease(db: Db): Promise<ReleaseInfo> {
  const current = await currentRelease();
  const content = await snapshotContent(db);
  if (current && current.contentHash === contentHash(content) && current.codeVersion === (await codeVersion())) {
    try {
      await load(current);
      log.info('serving existing release', { release: current.id });
      return current;
    } catch (err) {
      log.warn('current release unreadable; rebuilding', { err });
    }
  }
  log.info('building the static pages from the database…');
  return publishRelease(db);
}
