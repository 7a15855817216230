import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { expectedFiles as defaultExpectedFiles } from '../content/routes';
import { memoOfFrozen } from '../content/frozen';
import type { SiteContent } from '../content/site-content';
import { currentSiteUrl } from '../env';
import { log } from '../log';
import { projectRoot } from '../paths';
import type { ReleaseInfo } from './live-site';
import { PAGE_BROTLI_QUALITY, precompress, type ReleaseFiles, type WrittenFile } from './release-files';
import { renderBuilder, type Builder, type BuildMemoSlot } from './render';

export interface BuildOptions {
  /** How the pages are made; rendered by the server bundle (render.ts) by default. */
  builder?: Builder;
  /** The files the release must contain; `content/routes.ts` by default. */
  expectedFiles?: (content: SiteContent) => string[];
  /** The live release: unchanged files reuse its compressed copies. */
  previous?: ReleaseInfo | null;
  /**
   * Called once the release's new pages are rendered, written and checked, before the pages it
   * keeps from `previous` are linked on disk (the live process serves those from the live release meanwhile):
   * publishing serves the release from here, with what the build knows of its files (`known`).
   * A failure of what follows fails the build.
   */
  onReady?: (info: ReleaseInfo, known?: ReleaseFiles) => Promise<void>;
  /** What the builder remembers of the last release it built: the engine's (release-store.ts). */
  memo?: BuildMemoSlot;
}

/** Inside the project (release files are hard links of dist/client); each server with its own data uses its own (RELEASES_DIR). */
export function releasesDir(): string {
  return path.resolve(projectRoot(), process.env.RELEASES_DIR || '.releases');
}

export function releaseClientDir(id: string): string {
  return path.join(releasesDir(), id, 'client');
}

/** Each insight row's digest, worked out once for a row a snapshot read (frozen; shared by later snapshots). */
const rowDigest = memoOfFrozen((row: object): string => createHash('sha1').update(JSON.stringify(row)).digest('base64'));

/**
 * A hash of what a build reads, without the moment it was read: of the content's JSON but the
 * insights, then of each insight's digest in order. An article is digested once, when it is
 * read, not at every publish (the articles are most of the content: 25 MB at 3,000). A snapshot's
 * is worked out once: a publish asks for it twice (the fleet's version, the release).
 */
export const contentHash = memoOfFrozen((content: SiteContent): string => {
  const { generatedAt: _ignored, insights, ...rest } = content;
  const hash = createHash('sha256').update(JSON.stringify(rest));
  for (const row of insights) hash.update(rowDigest(row));
  return hash.digest('hex').slice(0, 16);
});

/**
 * Identifies the code the pages are built from: a release built by other code is rebuilt at start.
 * It is the hash of the sources that the server bundle's build recorded (scripts/build.ts), not
 * the bundle's modification time: `npm run build` or `npm test` rebuild the bundle from the same
 * sources, and that must not make the next start rebuild every page.
 */
export async function codeVersion(): Promise<string> {
  const dist = path.join(projectRoot(), 'dist', 'server');
  const stamp = (await fs.readFile(path.join(dist, 'build-stamp.txt'), 'utf8').catch(() => '')).trim();
  if (stamp) return stamp.slice(0, 16);
  const stat = await fs.stat(path.join(dist, 'entry.mjs')).catch(() => undefined);
  return stat ? String(Math.floor(stat.mtimeMs)) : 'none';
}

export async function readRelease(id: string): Promise<ReleaseInfo | null> {
  try {
    return JSON.parse(await fs.readFile(path.join(releasesDir(), id, 'release.json'), 'utf8')) as ReleaseInfo;
  } catch {
    return null;
  }
}

export async function currentRelease(): Promise<ReleaseInfo | null> {
  const id = await fs.readlink(path.join(releasesDir(), 'current')).catch(() => undefined);
  return id ? readRelease(id) : null;
}

function newReleaseId(): string {
  return `${new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14)}-${randomBytes(3).toString('hex')}`;
}

/**
 * Builds the static pages for `content` into a new release directory and checks it: the build
 * finished cleanly and every expected file is there and non-empty. The live release is untouched
 * until `activateRelease`; a failed build removes its own directory.
 */
export async function buildRelease(content: SiteContent, opts: BuildOptions = {}): Promise<ReleaseInfo> {
  const started = Date.now();
  // The address the builder renders for (render.ts reads it the same way, as the build starts).
  const site = currentSiteUrl();
  const id = newReleaseId();
  const dir = path.join(releasesDir(), id);
  await fs.mkdir(dir, { recursive: true });
  try {
    // The live release's pages can be kept where nothing they read changed, if the same code made them.
    const previousDir =
      opts.previous && opts.previous.codeVersion === (await codeVersion()) ? path.join(releasesDir(), opts.previous.id) : undefined;
    const built = await (opts.builder ?? renderBuilder())(dir, content, previousDir, opts.memo);
    const astroMs = Date.now() - started;
    const client = path.join(dir, 'client');
    // What the builder kept from the previous release was checked and compressed in that one.
    const kept = built && previousDir ? built.kept : new Set<string>();
    const missing: string[] = [];
    // What it rendered was written whole from the bytes in hand (its compressed copies come once
    // the release is live).
    const written = built?.written ?? new Map<string, WrittenFile>();
    for (const file of (opts.expectedFiles ?? defaultExpectedFiles)(content)) {
      if (kept.has(file.slice(1)) || written.get(file.slice(1))?.length) continue;
      const ok = await fs.stat(path.join(client, file)).then(
        (s) => s.isFile() && s.size > 0,
        () => false,
      );
      if (!ok) missing.push(file);
    }
    if (missing.length) throw new Error(`build is missing ${missing.length} page(s): ${missing.slice(0, 5).join(', ')}`);
    const previousClient = opts.previous ? releaseClientDir(opts.previous.id) : undefined;
    await precompress(
      client,
      previousClient,
      PAGE_BROTLI_QUALITY,
      built ? built.files.filter((f) => !kept.has(f) && !written.has(f)) : undefined,
    );
    const pages = built
      ? built.files.filter((f) => f.endsWith('.html')).length
      : (await fs.readdir(client, { recursive: true })).filter((f) => String(f).endsWith('.html')).length;
    const info: ReleaseInfo = {
      id,
      contentHash: contentHash(content),
      codeVersion: await codeVersion(),
      site,
      builtAt: new Date().toISOString(),
      durationMs: Date.now() - started,
      astroMs,
      pages,
    };
    const known = built ? { files: built.files, kept, keptFrom: previousDir && path.join(previousDir, 'client'), written } : undefined;
    await opts.onReady?.(info, known);
    const again = (await built?.finish?.()) ?? [];
    if (again.length) await precompress(client, undefined, PAGE_BROTLI_QUALITY, again);
    await fs.writeFile(path.join(dir, 'release.json'), JSON.stringify(info, null, 2));
    return info;
  } catch (err) {
    await fs.rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Points `.releases/current` at a release with an atomic rename of a fresh symlink. */
export async function activateRelease(id: string): Promise<void> {
  const link = path.join(releasesDir(), 'current');
  const tmp = `${link}.${process.pid}.${randomBytes(3).toString('hex')}`;
  await fs.symlink(id, tmp);
  await fs.rename(tmp, link);
  log.info('release activated', { id });
}

/**
 * Says that an instance serves the release `id` (its directory's time is now): an instance serves
 * its article pages from disk, and one sharing RELEASES_DIR with others must not have its release
 * pruned under it while it has not moved to a newer one. The instance heartbeat calls it.
 */
export async function markReleaseInUse(id: string): Promise<void> {
  const now = new Date();
  await fs.utimes(path.join(releasesDir(), id), now, now).catch(() => {});
}

/**
 * Removes releases older than the grace period, keeping the current one and the `keep` newest
 * others (a browser may still hold a page of the previous release and fetch its assets), and any
 * an instance has said it serves within the grace period (`markReleaseInUse`).
 */
export async function pruneReleases(graceMs = 10 * 60 * 1000, keep = 2): Promise<void> {
  const current = await fs.readlink(path.join(releasesDir(), 'current')).catch(() => undefined);
  const entries = await fs.readdir(releasesDir(), { withFileTypes: true }).catch(() => []);
  const dirs = entries
    .filter((e) => e.isDirectory() && e.name !== current)
    .map((e) => e.name)
    .sort()
    .reverse();
  // Snapshots left by a process that stopped mid-publish go with the old releases.
  const leftovers = entries.filter((e) => e.name.endsWith('.content.json')).map((e) => e.name);
  for (const name of [...dirs.slice(keep), ...leftovers]) {
    const stat = await fs.stat(path.join(releasesDir(), name)).catch(() => undefined);
    if (stat && Date.now() - stat.mtimeMs > graceMs) {
      await fs.rm(path.join(releasesDir(), name), { recursive: true, force: true });
    }
  }
}
