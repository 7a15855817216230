import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SiteContent } from '../content/site-content';
import { isAlive } from '../db/lock';
import { log } from '../log';
import { projectRoot } from '../paths';
import { precompress } from '../web/static-site';
import { copyShell } from './content-build';
import { expectedFiles as defaultExpectedFiles } from './routes';

export interface ReleaseInfo {
  id: string;
  contentHash: string;
  codeVersion: string;
  builtAt: string;
  durationMs: number;
  /** Of which the Astro build itself. */
  astroMs?: number;
  pages: number;
}

/** Runs one Astro build of the static pages into `outDir` from the snapshot file. */
export type Builder = (outDir: string, snapshotFile: string) => Promise<void>;

export interface BuildOptions {
  /** Warm worker or cold `astro build`; the cold one by default. */
  builder?: Builder;
  /** The files the release must contain; `routes.ts` by default. */
  expectedFiles?: (content: SiteContent) => string[];
  /** The live release: unchanged files reuse its compressed copies. */
  previous?: ReleaseInfo | null;
}

/** Inside the project (astro build fails with an outDir outside it); each server with its own data uses its own (RELEASES_DIR). */
export function releasesDir(): string {
  return path.resolve(projectRoot(), process.env.RELEASES_DIR || '.releases');
}

/** Where a build worker keeps its bundles between builds (build-memo.ts). */
export function buildCacheDir(pid: number): string {
  return path.join(releasesDir(), `build-cache-${pid}`);
}

export function releaseClientDir(id: string): string {
  return path.join(releasesDir(), id, 'client');
}

/** A hash of what a build reads, without the moment it was read. */
export function contentHash(content: SiteContent): string {
  const { generatedAt: _ignored, ...rest } = content;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex').slice(0, 16);
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

/** A cold `astro build` in a child process: the fallback when the warm worker is unavailable. */
export const coldBuild: Builder = (outDir, snapshotFile) =>
  new Promise((resolve, reject) => {
    const astroBin = path.join(projectRoot(), 'node_modules', 'astro', 'astro.js');
    const child = spawn(process.execPath, [astroBin, 'build', '--outDir', outDir, '--silent'], {
      cwd: projectRoot(),
      env: { ...process.env, CONTENT_SNAPSHOT: snapshotFile, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output = (output + d).slice(-4000)));
    child.stderr.on('data', (d) => (output = (output + d).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`astro build exited with ${code}: ${output.trim().split('\n').slice(-5).join(' | ')}`)),
    );
  });

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
  // Beside the release, not in it: astro build empties its outDir first.
  const snapshotFile = path.join(releasesDir(), `${id}.content.json`);
  await fs.writeFile(snapshotFile, JSON.stringify(content));
  try {
    await (opts.builder ?? coldBuild)(dir, snapshotFile);
    const astroMs = Date.now() - started;
    const client = path.join(dir, 'client');
    await copyShell(client);
    const missing: string[] = [];
    for (const file of (opts.expectedFiles ?? defaultExpectedFiles)(content)) {
      const ok = await fs.stat(path.join(client, file)).then(
        (s) => s.isFile() && s.size > 0,
        () => false,
      );
      if (!ok) missing.push(file);
    }
    if (missing.length) throw new Error(`build is missing ${missing.length} page(s): ${missing.slice(0, 5).join(', ')}`);
    await fs.rm(path.join(dir, 'server'), { recursive: true, force: true });
    await precompress(client, opts.previous ? releaseClientDir(opts.previous.id) : undefined);
    const pages = (await fs.readdir(client, { recursive: true })).filter((f) => String(f).endsWith('.html')).length;
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
    return info;
  } catch (err) {
    await fs.rm(dir, { recursive: true, force: true });
    throw err;
  } finally {
    await fs.rm(snapshotFile, { force: true });
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
    .filter((e) => e.isDirectory() && e.name !== current && !e.name.startsWith('warmup-') && !e.name.startsWith('build-cache-'))
    .map((e) => e.name)
    .sort()
    .reverse();
  // Snapshots and warm-up builds left by a process that stopped mid-build go with the old releases.
  const leftovers = entries.filter((e) => e.name.endsWith('.content.json') || e.name.startsWith('warmup-')).map((e) => e.name);
  // The bundles kept by a build worker that is gone (killed, or the server stopped uncleanly).
  for (const e of entries) {
    const pid = /^build-cache-(\d+)$/.exec(e.name)?.[1];
    if (pid && !isAlive(Number(pid))) await fs.rm(path.join(releasesDir(), e.name), { recursive: true, force: true });
  }
  for (const name of [...dirs.slice(keep), ...leftovers]) {
    const stat = await fs.stat(path.join(releasesDir(), name)).catch(() => undefined);
    if (stat && Date.now() - stat.mtimeMs > graceMs) {
      await fs.rm(path.join(releasesDir(), name), { recursive: true, force: true });
    }
  }
}
