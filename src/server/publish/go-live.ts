import { snapshotContent, type SiteContent } from '../content/site-content';
import type { Db } from '../db/client';
import { currentSiteUrl } from '../env';
import { log } from '../log';
import { writeNginxCspMap } from './nginx-csp';
import type { ReleaseInfo } from './live-site';
import type { StaticMap } from '../web/static-site';
import { compressMissing, loadStaticSite, type ReleaseFiles } from './release-files';
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
import type { ReleaseStore } from './release-store';

/*
 * The end of the pipeline: a finished release is described for serving, given its nginx CSP map, made
 * the current one on disk, then handed to the engine's live site (release-store.ts, live-site.ts),
 * which the HTTP layer serves.
 */

/** Describes a release's files, then makes it the live one: the disk link first, then the map. */
export async function goLive(store: ReleaseStore, info: ReleaseInfo): Promise<void> {
  await stopCompressing(store);
  const files = await loadRelease(store, info);
  await activate(info, files);
  store.live.serve(info, files);
  compressWhileServed(store, info, files);
}

/**
 * Makes the compressed copies of the live release's new pages, after it went live (a change every
 * page shows renders thousands of pages; compressing them took longer than rendering them).
 * Until a page has them it is served uncompressed.
 */
function compressWhileServed(store: ReleaseStore, info: ReleaseInfo, files: StaticMap, linked?: ReadonlySet<string>): void {
  let stopped = false;
  const started = Date.now();
  const served = () => !stopped && store.live.site() === files;
  const done = compressMissing(releaseClientDir(info.id), files, served, linked).then(
    // `complete`: false when a newer publish took over the rest. At debug level: at a start it
    // comes after the start's last words (the first administrator's password).
    (count) => log.debug('pages compressed', { release: info.id, count, ms: Date.now() - started, complete: served() }),
    (err: unknown) => log.warn('compressing pages failed; they are served uncompressed', { release: info.id, err }),
  );
  store.compressing = { stop: () => void (stopped = true), done };
}

/**
 * Stops compressing the live release's pages, once the files being compressed are done: a
 * publish then keeps its pages as they are on disk and in memory, and compresses what they lack;
 * a stopping instance leaves no write behind it.
 */
export async function stopCompressing(store: ReleaseStore): Promise<void> {
  store.compressing?.stop();
  await store.compressing?.done;
}

/** Resolves when the live release's pages have their compressed copies (or compressing stopped). */
export async function compressionSettled(store: ReleaseStore): Promise<void> {
  await store.compressing?.done;
}

/** A release's files described for serving, sharing the served description of every file the live release has too. */
function loadRelease(store: ReleaseStore, info: ReleaseInfo, known?: ReleaseFiles): Promise<StaticMap> {
  const served = store.live.release();
  const previous = served ? { dir: releaseClientDir(served.id), files: store.live.site() } : undefined;
  return loadStaticSite(releaseClientDir(info.id), previous, known);
}

/** The release on disk: its nginx CSP map, then `current` pointing at it. */
async function activate(info: ReleaseInfo, files: StaticMap): Promise<void> {
  await writeNginxCspMap(releaseClientDir(info.id), files);
  await activateRelease(info.id);
}

/**
 * Builds, checks and swaps in a release of `content`; on any failure the live release stays. The
 * release is served as soon as its new pages are ready, then completed on disk (the
 * pages it keeps linked, `current` moved); should that fail, the previous release is served again.
 */
export async function publishContent(store: ReleaseStore, content: SiteContent, opts: BuildOptions = {}): Promise<ReleaseInfo> {
  await stopCompressing(store);
  const before = { info: store.live.release(), files: store.live.site() };
  let files: StaticMap | undefined;
  // The pages the release keeps from the live one: linked into it once it is served.
  let linked: ReadonlySet<string> | undefined;
  let loadMs = 0;
  try {
    const info = await buildRelease(content, {
      previous: before.info,
      memo: store,
      ...opts,
      onReady: async (ready, known) => {
        const loading = Date.now();
        files = await loadRelease(store, ready, known);
        linked = known?.kept;
        store.live.serve(ready, files);
        loadMs = Date.now() - loading;
      },
    });
    await activate(info, files!);
    compressWhileServed(store, info, files!, linked);
    log.info('published', { release: info.id, durationMs: info.durationMs, astroMs: info.astroMs, loadMs, pages: info.pages });
    pruneReleases().catch((err) => log.warn('pruning old releases failed', { err }));
    collectGarbage();
    return info;
  } catch (err) {
    if (files && store.live.site() === files && before.info) store.live.serve(before.info, before.files);
    // The release still served goes on getting its compressed copies.
    const live = store.live.release();
    if (live) compressWhileServed(store, live, store.live.site());
    throw err;
  }
}

/**
 * A publish leaves the previous release's pages and its own working data behind. A full
 * collection once it is live (`gc` is there when node runs with --expose-gc, as `npm start` does;
 * asynchronous, so it waits for an idle moment) gives the memory back while the server is idle,
 * instead of letting the heap grow over hundreds of publishes until V8 decides to shrink it.
 */
function collectGarbage(): void {
  void globalThis.gc?.({ type: 'major', execution: 'async' });
}

/**
 * At start: serve the current release when it was built from this content by this code for this
 * site address (a new SITE_URL changes every canonical link and the sitemap), else build one. Answers whether it built, and the error when building failed but an older release
 * could be served.
 */
export async function ensureRelease(
  store: ReleaseStore,
  db: Db,
  opts: BuildOptions = {},
): Promise<{ info: ReleaseInfo; built: boolean; error?: Error }> {
  const current = await currentRelease();
  const content = await snapshotContent(db, store.snapshots);
  const site = currentSiteUrl();
  if (current && current.site !== site)
    log.info('SITE_URL changed since the pages were rendered; rendering them again', { from: current.site, to: site });
  if (current && current.contentHash === contentHash(content) && current.codeVersion === (await codeVersion()) && current.site === site) {
    try {
      await goLive(store, current);
      log.info('serving existing release', { release: current.id });
      return { info: current, built: false };
    } catch (err) {
      log.warn('current release unreadable; rebuilding', { err });
    }
  }
  log.info('building the static pages from the database…');
  try {
    return { info: await publishContent(store, content, opts), built: true };
  } catch (err) {
    // A failed build with a release still on disk: serve that one rather than nothing.
    if (!current) throw err;
    await goLive(store, current);
    log.error('building the pages failed; serving the previous release', { release: current.id, err });
    return { info: current, built: false, error: err as Error };
  }
}
