import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { categoryLabel, formatLongDate } from '#lib/format.ts';
import { publishedInsights } from '../content/routes';
import type { SiteContent } from '../content/site-content';
import { log } from '../log';
import { serveSearchIndex } from '../web/live-site';
import { memoryFile, type StaticMap } from '../web/static-site';
import { releasesDir } from './releases';

/*
 * Search over the insights, with Pagefind: an index of the published insights, made from the
 * content a release shows once that release is live, so the index may lag the pages by a few
 * seconds but never shows an article before its page exists. The index is an artifact of its
 * own, beside the releases: `search/<digest>/pagefind/` (the digest of what it indexes), with
 * `search/current` linking to the one served. The app serves it from memory at `/pagefind/`,
 * nginx from that directory. A publish that changes no insight (a header title, a service) finds
 * the same digest and indexes nothing. The browser loads Pagefind's script and its WebAssembly
 * only when a visitor focuses the search box (src/shared/inline-scripts.ts).
 */

/** Bumped when the records change shape, so every site gets a fresh index with the new code. */
const RECORDS_VERSION = 1;
/** Pagefind's files a browser needs: its script, worker, WebAssembly, entry and index chunks. */
const SERVED =
  /^(pagefind\.js|pagefind-worker\.js|pagefind-entry\.json|wasm\.[a-z-]+\.pagefind|pagefind\.[\w-]+\.pf_meta|(index|fragment|filter)\/[\w-]+\.pf_\w+)$/;

export interface SearchRecord {
  url: string;
  content: string;
  language: string;
  meta: Record<string, string>;
}

function searchDir(): string {
  return path.join(releasesDir(), 'search');
}

/** One record per published insight page: what a reader can find it by, and what a result shows. */
export function searchRecords(content: SiteContent): SearchRecord[] {
  return publishedInsights(content).map((i) => {
    const date = formatLongDate(i.publicationDate ?? i.createdAt);
    const meta: Record<string, string> = { title: i.title, category: categoryLabel(i.category) };
    if (date) meta.date = date;
    return {
      url: `/insights/${i.slug}`,
      // The title is found through its meta field (Pagefind indexes meta), so excerpts start in the text.
      content: [i.excerpt, i.content, i.authorName, ...(i.tags ?? [])].filter(Boolean).join('\n\n'),
      language: 'en',
      meta,
    };
  });
}

function searchDigest(records: SearchRecord[]): string {
  return createHash('sha256')
    .update(`${RECORDS_VERSION}\n${JSON.stringify(records)}`)
    .digest('hex')
    .slice(0, 16);
}

/** Pagefind's output for `records`: path (under `pagefind/`) → bytes. */
export async function searchIndexFiles(records: SearchRecord[]): Promise<Map<string, Uint8Array>> {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
  if (!index) throw new Error(`search index: ${errors.join('; ')}`);
  try {
    // Added a batch at a time: the service answers each over a pipe, so one by one is slow.
    for (let i = 0; i < records.length; i += 200) {
      const results = await Promise.all(records.slice(i, i + 200).map((r) => index.addCustomRecord(r)));
      const failed = results.find((r) => r.errors.length);
      if (failed) throw new Error(`search index: ${failed.errors.join('; ')}`);
    }
    const out = await index.getFiles();
    if (out.errors.length) throw new Error(`search index: ${out.errors.join('; ')}`);
    return new Map(out.files.filter((f) => SERVED.test(f.path)).map((f) => [f.path, f.content]));
  } finally {
    // The indexer is a process of its own: it goes until the next index, so idle memory stays low.
    await pagefind.close();
  }
}

/** How each of the index's files is served: Pagefind's hashed chunks never change under their name. */
async function servedFile(rel: string, body: Buffer) {
  const cache = rel.includes('.pf_') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate';
  if (rel.endsWith('.js')) return memoryFile(body, 'text/javascript; charset=utf-8', cache);
  if (rel.endsWith('.json')) return memoryFile(body, 'application/json; charset=utf-8', cache);
  // The chunks and the WebAssembly come compressed by Pagefind.
  return memoryFile(body, 'application/octet-stream', cache, undefined, false);
}

async function readIndexDir(dir: string): Promise<StaticMap> {
  const map: StaticMap = new Map();
  const root = path.join(dir, 'pagefind');
  for (const rel of await fs.readdir(root, { recursive: true })) {
    const name = String(rel).split(path.sep).join('/');
    if (!SERVED.test(name)) continue;
    map.set(`/pagefind/${name}`, await servedFile(name, await fs.readFile(path.join(root, name))));
  }
  return map;
}

/** Writes an index directory whole under a temporary name, then gives it its own. */
async function writeIndexDir(digest: string, files: Map<string, Uint8Array>): Promise<StaticMap> {
  const final = path.join(searchDir(), digest);
  const tmp = `${final}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
  const map: StaticMap = new Map();
  try {
    for (const [rel, content] of files) {
      const file = path.join(tmp, 'pagefind', rel);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const served = await servedFile(rel, Buffer.from(content));
      await fs.writeFile(file, served.body);
      // nginx sends the gzip copy (gzip_static) to a browser that takes it.
      if (served.gz) await fs.writeFile(`${file}.gz`, served.gz);
      map.set(`/pagefind/${rel}`, served);
    }
    await fs.rm(final, { recursive: true, force: true });
    await fs.rename(tmp, final);
    return map;
  } catch (err) {
    await fs.rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** Points `search/current` at an index directory with an atomic rename of a fresh symlink. */
async function activate(digest: string): Promise<void> {
  const link = path.join(searchDir(), 'current');
  const tmp = `${link}.${process.pid}.${randomBytes(3).toString('hex')}`;
  await fs.symlink(digest, tmp);
  await fs.rename(tmp, link);
}

/**
 * Removes index directories other than the current one and the newest before it (a page loaded
 * before the swap may still ask for its chunks), and unfinished ones, once unused for a while.
 */
async function prune(current: string, graceMs = 10 * 60 * 1000): Promise<void> {
  const entries = await fs.readdir(searchDir(), { withFileTypes: true }).catch(() => []);
  const others = await Promise.all(
    entries
      .filter((e) => e.isDirectory() && e.name !== current)
      .map(async (e) => ({ name: e.name, mtime: (await fs.stat(path.join(searchDir(), e.name))).mtimeMs })),
  );
  const finished = others.filter((o) => !o.name.endsWith('.tmp')).sort((a, b) => b.mtime - a.mtime);
  const old = [...finished.slice(1), ...others.filter((o) => o.name.endsWith('.tmp'))];
  for (const { name, mtime } of old) {
    if (Date.now() - mtime > graceMs) await fs.rm(path.join(searchDir(), name), { recursive: true, force: true });
  }
}

/** The digest the served index was made from, once loaded. */
let served: string | undefined;
let pending: { content?: SiteContent } | undefined;
let running: Promise<void> | undefined;

async function refresh(content: SiteContent | undefined): Promise<void> {
  const onDisk = await fs.readlink(path.join(searchDir(), 'current')).catch(() => undefined);
  if (!content) {
    // Only what is on disk, once: the index of the release this process started with.
    if (served === undefined && onDisk) {
      serveSearchIndex(await readIndexDir(path.join(searchDir(), onDisk)));
      served = onDisk;
    }
    return;
  }
  const records = searchRecords(content);
  const digest = searchDigest(records);
  if (digest === served) return;
  const started = Date.now();
  let files: StaticMap | undefined;
  if (onDisk === digest) files = await readIndexDir(path.join(searchDir(), digest)).catch(() => undefined);
  if (!files) {
    await fs.mkdir(searchDir(), { recursive: true });
    files = await writeIndexDir(digest, await searchIndexFiles(records));
    await activate(digest);
    log.info('search index written', { articles: records.length, files: files.size, ms: Date.now() - started });
  }
  serveSearchIndex(files);
  served = digest;
  await prune(digest);
}

/**
 * Brings the search index up to `content`, the content of a release that is live, in the
 * background: one index at a time, and only the newest content waiting is indexed next. Without
 * content, serves the index on disk if none is served yet (a start that kept an older release).
 */
export function refreshSearchIndex(content?: SiteContent): Promise<void> {
  if (content || !pending) pending = { content };
  running ??= (async () => {
    while (pending) {
      const next = pending.content;
      pending = undefined;
      try {
        await refresh(next);
      } catch (err) {
        log.warn('the search index could not be updated; the previous one stays', { err });
      }
    }
  })().finally(() => (running = undefined));
  return running;
}

/** Resolves once no index is being made (a clean stop). */
export function searchIndexIdle(): Promise<void> {
  return running ?? Promise.resolve();
}

/** The index of `content`'s insights written into `clientDir/pagefind/` (`npm run build:static`). */
export async function writeSearchIndexTo(clientDir: string, content: SiteContent): Promise<number> {
  const files = await searchIndexFiles(searchRecords(content));
  for (const [rel, body] of files) {
    const file = path.join(clientDir, 'pagefind', rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, body);
  }
  return files.size;
}
