import { snapshotContent, type SiteContent } from '../content/site-content';
import type { Db } from '../db/client';
import { log } from '../log';
import { writeNginxCspMap } from './nginx-csp';
import { liveRelease, liveSite, serveRelease, type ReleaseInfo } from '../web/live-site';
import { loadStaticSite } from '../web/static-site';
import {
  activateRelease,
  buildRelease,
  codeVersion,
  contentHash,
  currentRelease,
  pruneReleases,
  releaseClientDir,
  type BuildOptions,
} from './releases';

/*
 * The end of the pipeline: a finished release is read into memory, given its nginx CSP map, made
 * the current one on disk, then handed to the web layer (web/live-site.ts), which serves it.
 */

/** Reads a release into memory, then makes it the live one: the disk link first, then the map. */
export async function goLive(info: ReleaseInfo): Promise<void> {
  const served = liveRelease();
  const files = await loadStaticSite(
    releaseClientDir(info.id),
    served ? { dir: releaseClientDir(served.id), files: liveSite() } : undefined,
  );
  await writeNginxCspMap(releaseClientDir(info.id), files);
  await activateRelease(info.id);
  serveRelease(info, files);
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
