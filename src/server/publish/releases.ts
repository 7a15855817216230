import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { expectedFiles as defaultExpectedFiles } from '../content/routes';
import { contentJson, isSnapshot, type SiteContent } from '../content/site-content';
import { log } from '../log';
import { projectRoot } from '../paths';
import type { ReleaseInfo } from '../web/live-site';
import { precompress, rememberReleaseFiles } from '../web/static-site';
import { renderBuilder, type Builder } from './render';

export interface BuildOptions {
  /** How the pages are made; rendered by the server bundle (render.ts) by default. */
  builder?: Builder;
  /** The files the release must contain; `content/routes.ts` by default. */
  expectedFiles?: (content: SiteContent) => string[];
  /** The live release: unchanged files reuse its compressed copies. */
  previous?: ReleaseInfo | null;
}

/** Inside the project (release files are hard links of dist/client); each server with its own data uses its own (RELEASES_DIR). */
export function releasesDir(): string {
  return path.resolve(projectRoot(), process.env.RELEASES_DIR || '.releases');
}

export function releaseClientDir(id: string): string {
  return path.join(releasesDir(), id, 'client');
}

/** Each snapshot's hash, worked out once: a publish asks for it twice (the fleet's version, the release). */
const hashes = new WeakMap<SiteContent, string>();

/** A hash of what a build reads, without the moment it was read. */
export function contentHash(content: SiteContent): string {
  const known = hashes.get(content);
  if (known !== undefined) return known;
  const hash = createHash('sha256').update(contentJson(content)).digest('hex').slice(0, 16);
  if (isSnapshot(content)) hashes.set(content, hash);
  return hash;
}

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

/**
 * Brotli quality for the pages of a release (the assets come compressed at 11 from the build).
 * Quality 11 took 0.4 s for the 58 KB home page on a busy 2-core machine, 9 took 42 ms for a
 * file 9 % larger: a publish goes live in a third of a second instead of a second.
 */
const PAGE_BROTLI_QUALITY = 9;

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
  const id = newReleaseId();
  const dir = path.join(releasesDir(), id);
  await fs.mkdir(dir, { recursive: true });
  try {
    // The live release's pages can be kept where nothing they read changed, if the same code made them.
    const previousDir =
      opts.previous && opts.previous.codeVersion === (await codeVersion()) ? path.join(releasesDir(), opts.previous.id) : undefined;
    const built = await (opts.builder ?? renderBuilder())(dir, content, previousDir);
    const astroMs = Date.now() - started;
    const client = path.join(dir, 'client');
    // What the builder kept from the previous release was checked and compressed in that one.
    const kept = built && previousDir ? built.kept : new Set<string>();
    const missing: string[] = [];
    for (const file of (opts.expectedFiles ?? defaultExpectedFiles)(content)) {
      if (kept.has(file.slice(1))) continue;
      const ok = await fs.stat(path.join(client, file)).then(
        (s) => s.isFile() && s.size > 0,
        () => false,
      );
      if (!ok) missing.push(file);
    }
    if (missing.length) throw new Error(`build is missing ${missing.length} page(s): ${missing.slice(0, 5).join(', ')}`);
    const previousClient = opts.previous ? releaseClientDir(opts.previous.id) : undefined;
    await precompress(client, previousClient, PAGE_BROTLI_QUALITY, built ? built.files.filter((f) => !kept.has(f)) : undefined);
    const pages = built
      ? built.files.filter((f) => f.endsWith('.html')).length
      : (await fs.readdir(client, { recursive: true })).filter((f) => String(f).endsWith('.html')).length;
    const info: ReleaseInfo = {
      id,
      contentHash: contentHash(content),
      codeVersion: await codeVersion(),
      builtAt: new Date().toISOString(),
      durationMs: Date.now() - started,
      astroMs,
      pages,
    };
    await fs.writeFile(path.join(dir, 'release.json'), JSON.stringify(info, null, 2));
    if (built) rememberReleaseFiles(client, { files: built.files, kept, keptFrom: previousDir && path.join(previousDir, 'client') });
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
 * Removes releases older than the grace period, keeping the current one and the `keep` newest
 * others (a browser may still hold a page of the previous release and fetch its assets).
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
