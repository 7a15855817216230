import { contentChanged } from '../content/generation';
import { snapshotContent, type SiteContent } from '../content/site-content';
import type { Db } from '../db/client';
import { log } from '../log';
import {
  activateRelease,
  buildRelease,
  codeVersion,
  contentHash,
  currentRelease,
  pruneReleases,
  releaseClientDir,
  type BuildOptions,
  type ReleaseInfo,
} from '../publish/releases';
import { loadStaticSite, type StaticFile, type StaticMap } from './static-site';

/*
 * The live release, held in memory. A swap replaces the map reference in one assignment, so each
 * request sees either the old release or the new one, never a mix and never a missing page.
 * Hashed assets of earlier releases stay for a grace period for pages already open in browsers.
 */
const ASSET_GRACE_MS = 10 * 60 * 1000;
type State = {
  map: StaticMap;
  release: ReleaseInfo | null;
  /** Assets no longer in the live release → when they left it. */
  retired: Map<string, { file: StaticFile; since: number }>;
};
const live: State = { map: new Map(), release: null, retired: new Map() };
const state = () => live;

export function liveSite(): StaticMap {
  return state().map;
}

export function liveRelease(): ReleaseInfo | null {
  return state().release;
}

/** Reads a release into memory, then makes it the live one: the disk link first, then the map. */
export async function goLive(info: ReleaseInfo): Promise<void> {
  const s = state();
  const next = await loadStaticSite(releaseClientDir(info.id));
  const now = Date.now();
  for (const [key, file] of s.map) {
    if (key.startsWith('/_astro/') && !next.has(key)) s.retired.set(key, { file, since: now });
  }
  for (const [key, { file, since }] of s.retired) {
    if (next.has(key) || now - since > ASSET_GRACE_MS) s.retired.delete(key);
    else next.set(key, file);
  }
  await activateRelease(info.id);
  s.map = next;
  s.release = info;
  contentChanged();
}

/** Builds, checks and swaps in a release of `content`; on any failure the live release stays. */
export async function publishContent(content: SiteContent, opts: BuildOptions = {}): Promise<ReleaseInfo> {
  const info = await buildRelease(content, { previous: liveRelease(), ...opts });
  const loading = Date.now();
  await goLive(info);
  log.info('published', {
    release: info.id,
    durationMs: info.durationMs,
    astroMs: info.astroMs,
    loadMs: Date.now() - loading,
    pages: info.pages,
  });
  pruneReleases().catch((err) => log.warn('pruning old releases failed', { err }));
  return info;
}

/**
 * At start: serve the current release when it was built from this content by this code, else
 * build one. Answers whether it built, and the error when building failed but an older release
 * could be served.
 */
export async function ensureRelease(db: Db, opts: BuildOptions = {}): Promise<{ info: ReleaseInfo; built: boolean; error?: Error }> {
  const current = await currentRelease();
  const content = await snapshotContent(db);
  if (current && current.contentHash === contentHash(content) && current.codeVersion === (await codeVersion())) {
    try {
      await goLive(current);
      log.info('serving existing release', { release: current.id });
      return { info: current, built: false };
    } catch (err) {
      log.warn('current release unreadable; rebuilding', { err });
    }
  }
  log.info('building the static pages from the database…');
  try {
    return { info: await publishContent(content, opts), built: true };
  } catch (err) {
    // A failed build with a release still on disk: serve that one rather than nothing.
    if (!current) throw err;
    await goLive(current);
    log.error('building the pages failed; serving the previous release', { release: current.id, err });
    return { info: current, built: false, error: err as Error };
  }
}
