import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime-types';
import { brotliCopy, compressedCopies, gzip, MIN_COMPRESSED } from '../compression';
import { htmlCsp, inlineScriptHashes } from '../security-headers';
import { heldBody, type Encoding, type Held, type StaticFile, type StaticMap } from '../web/static-site';

/*
 * A release's files as the server serves them (web/static-site.ts): each file's place on disk, its
 * compressed copies, type, cache rules and, for a page, its CSP and robots directives. The fixed
 * pages and assets are held in memory with their copies; the pages whose number grows with the
 * content stay on disk (`servedFromDisk`).
 */

const COMPRESSIBLE: ReadonlySet<string> = new Set(['.html', '.css', '.js', '.mjs', '.json', '.xml', '.txt', '.svg', '.webmanifest']);

/**
 * Brotli quality for the pages of a release (the assets come compressed at 11 from the build).
 * On a 2-core machine, for 62–80 KB pages: quality 9 took 82–85 ms, 6 took 1.2–3 ms for 1 %
 * more bytes (11 took 0.4 s). A publish of every page (3,000 articles) compresses in seconds,
 * not minutes, and an edit's three pages add milliseconds.
 */
export const PAGE_BROTLI_QUALITY = 6;

/** Gzip level for the pages a publish writes: on a 72 KB page 9 took 1.4 ms, 6 takes 1.0 ms for 0.4 % more bytes. */
const PAGE_GZIP_LEVEL = 6;

/** What a build knows of a page it wrote: enough to serve it without reading it back. */
export interface WrittenFile {
  csp?: string;
  robots?: string;
  length: number;
}

/** A page's `<meta name="robots">` directives, as the layout writes the tag; undefined without one. */
export function robotsOf(html: string): string | undefined {
  const head = html.slice(0, Math.max(0, html.indexOf('</head>')));
  return /<meta name="robots" content="([^"]+)"/.exec(head)?.[1];
}

/** The headers a page's own bytes decide: its CSP (the hashes of its inline scripts) and its robots directives. */
function pageHeaders(rel: string, body: Buffer): Pick<WrittenFile, 'csp' | 'robots'> {
  if (!rel.endsWith('.html')) return {};
  const html = body.toString('utf8');
  return { csp: htmlCsp(inlineScriptHashes(html)), robots: robotsOf(html) };
}

/**
 * Writes a page of a release from the bytes in hand and answers what serving it needs. Its
 * compressed copies are made once the release is live (`compressMissing`): a publish that renders
 * every page goes live without waiting for thousands of them.
 */
export async function writePage(full: string, body: Buffer): Promise<WrittenFile> {
  await fs.writeFile(full, body);
  return { ...pageHeaders(full, body), length: body.length };
}

/**
 * Pages compressed at once after a release went live: two of libuv's four threads, so that on a
 * two-core machine the main thread keeps serving meanwhile.
 */
const COMPRESS_LATER_CONCURRENCY = 2;

/** Writes `bytes` as `full` whole: a hard link taken of it (a publish keeping a page) never sees half a file. */
async function writeWhole(full: string, bytes: Buffer): Promise<void> {
  const tmp = `${full}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(tmp, bytes);
  await fs.rename(tmp, full);
}

/** The files of a map, each with its keys (its path first: loadStaticSite adds the clean URLs after the files). */
function keysByFile(map: StaticMap): Map<StaticFile, string[]> {
  const keys = new Map<StaticFile, string[]>();
  for (const [key, file] of map) {
    const list = keys.get(file);
    if (list) list.push(key);
    else keys.set(file, [key]);
  }
  return keys;
}

/**
 * Completes the files of a served release (`map`, loaded from `dir`, now whole on disk): the pages
 * it kept are served from `dir` from now on, and those that lack compressed copies get them, a few
 * at a time, each served with them as soon as they are written. A copy already on disk (made by
 * another instance sharing the directory) is taken as it is. Stops between files once
 * `stillServed` says no: the next release compresses what it kept of these without copies.
 * `linked`: the files (relative paths) the publish linked into `dir`, which need no look on disk
 * (thousands of kept pages at each publish). Answers how many files it compressed.
 */
export async function compressMissing(
  dir: string,
  map: StaticMap,
  stillServed: () => boolean = () => true,
  linked: ReadonlySet<string> = new Set(),
): Promise<number> {
  const replace = (file: StaticFile, keys: string[], next: StaticFile) => {
    for (const key of keys) if (map.get(key) === file) map.set(key, next);
  };
  let done = 0;
  await eachAtMost([...keysByFile(map)], COMPRESS_LATER_CONCURRENCY, async ([file, keys]) => {
    if (!stillServed()) return;
    const full = path.join(dir, keys[0]!);
    // Kept from the release before (served from there until linked here: `linked` names what the
    // publish linked, any other file is looked for); an earlier release's asset stays where it is.
    if (file.path !== full && (linked.has(keys[0]!.slice(1)) || (await exists(full))))
      replace(file, keys, (file = { ...file, path: full }));
    if (file.path !== full || !COMPRESSIBLE.has(path.extname(full)) || file.encodings.length === 2) return;
    const body = file.held?.identity?.bytes ?? (await fs.readFile(full));
    if (body.length < MIN_COMPRESSED) return;
    // A copy made here is held as it is written; one another instance made is read.
    const copy = async (ext: string, make: () => Promise<Buffer>) => {
      const bytes = (await exists(full + ext)) ? undefined : await make();
      if (bytes) await writeWhole(full + ext, bytes);
      if (file.held) return heldBody(bytes ?? (await fs.readFile(full + ext)));
    };
    const [br, gzipped] = await Promise.all([
      copy('.br', () => brotliCopy(body, PAGE_BROTLI_QUALITY)),
      copy('.gz', () => gzip(body, { level: PAGE_GZIP_LEVEL })),
    ]);
    if (!stillServed()) return;
    replace(file, keys, { ...file, encodings: ['br', 'gzip'], ...(file.held && { held: { ...file.held, br, gzip: gzipped } }) });
    done++;
  });
  return done;
}

async function walk(dir: string, base = dir, out: string[] = []): Promise<string[]> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await walk(full, base, out);
    else if (entry.isFile()) out.push(path.relative(base, full));
  }
  return out;
}

/**
 * Writes `.br` (at brotli `quality`) and `.gz` beside every compressible file that has none yet
 * (of `only`, when the caller knows which files may lack them, else of every file under `dir`).
 * A file identical to the one in `previousDir` (unchanged pages) reuses that release's copies.
 */
export async function precompress(dir: string, previousDir?: string, quality = 11, only?: string[]): Promise<void> {
  const files = (only ?? (await walk(dir))).filter((f) => COMPRESSIBLE.has(path.extname(f)));
  // A few at a time: every started brotli encoder holds its window, so all at once (the first
  // release has ~60 files) took the server near a gigabyte of memory.
  await eachAtMost(files, PRECOMPRESS_CONCURRENCY, async (rel) => {
    const full = path.join(dir, rel);
    // Linked in already compressed (the bundle's client files: scripts/build.ts compresses them;
    // the pages a publish kept from the live release).
    if ((await exists(`${full}.br`)) && (await exists(`${full}.gz`))) return;
    const body = await fs.readFile(full);
    if (previousDir && (await reuseCompressed(body, path.join(previousDir, rel), full))) return;
    const copies = await compressedCopies(body, quality, 9);
    if (copies) await Promise.all([fs.writeFile(`${full}.br`, copies.br), fs.writeFile(`${full}.gz`, copies.gz)]);
  });
}

/** Runs `work` on every item, at most `limit` at once, in order of start. */
async function eachAtMost<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/** zlib work runs on libuv's pool (4 threads by default): more at once only queues memory. */
const PRECOMPRESS_CONCURRENCY = 4;

async function reuseCompressed(body: Buffer, previous: string, full: string): Promise<boolean> {
  const old = await fs.readFile(previous).catch(() => undefined);
  if (!old || !old.equals(body)) return false;
  try {
    await Promise.all([fs.copyFile(`${previous}.br`, `${full}.br`), fs.copyFile(`${previous}.gz`, `${full}.gz`)]);
    return true;
  } catch {
    return false;
  }
}

/** The sign-in pages and the back office shell: never kept by a browser or a shared cache. */
const NEVER_CACHED: ReadonlySet<string> = new Set(['admin.html', 'auth.html', 'auth/forgot.html', 'auth/reset.html']);

/**
 * What a publish rewrites under the same name (pages, the sitemap, the feed, robots.txt, the
 * generated capability statement) is asked for again each time and answered 304 while its ETag
 * holds, so a visitor never keeps yesterday's statement for an hour.
 */
const REWRITTEN = /\.(?:html|xml|txt|pdf)$/;

function cacheControlFor(rel: string): string {
  if (NEVER_CACHED.has(rel)) return 'no-store';
  if (rel.startsWith('_astro/')) return 'public, max-age=31536000, immutable';
  if (REWRITTEN.test(rel)) return 'public, max-age=0, must-revalidate';
  return 'public, max-age=3600';
}

/**
 * What the build of a release in this process knows of its client directory: every file but the
 * compressed copies, and those that are hard links (with their compressed copies) of the files of
 * the same name in `keptFrom`, linked once the release is served. Taking the release in then needs
 * no walk, and no `stat` of the files it kept.
 */
export interface ReleaseFiles {
  files: string[];
  kept: ReadonlySet<string>;
  keptFrom?: string;
  /** The pages the build wrote with `writePage`: they are not read again. */
  written?: ReadonlyMap<string, WrittenFile>;
}

/** Whether two paths are the same file (hard links of it), with its compressed copies. */
async function sameFile(a: string, b: string): Promise<boolean> {
  for (const ext of ['', '.br', '.gz']) {
    const [x, y] = await Promise.all([fs.stat(a + ext).catch(() => undefined), fs.stat(b + ext).catch(() => undefined)]);
    if (!x !== !y || (x && y && (x.ino !== y.ino || x.dev !== y.dev))) return false;
  }
  return true;
}

/**
 * The pages whose number grows with the content (one per article, and the listing's later pages)
 * are served from the release on disk: at thousands of articles their bytes would hold hundreds of
 * megabytes, twice over while a publish swaps every page. The fixed pages, assets and not-found
 * pages are held in memory.
 */
const servedFromDisk = (rel: string) => rel.startsWith('insights/') && rel.endsWith('.html') && rel !== 'insights/404.html';

/** The compressed copies beside a file and, for a file `held` in memory (its bytes given), every representation's bytes. */
async function copiesOf(full: string, held?: Buffer): Promise<{ encodings: Encoding[]; held?: Held }> {
  const read = (ext: string) => (held ? fs.readFile(full + ext) : fs.stat(full + ext)).catch(() => undefined);
  const [br, gz] = await Promise.all([read('.br'), read('.gz')]);
  const encodings = [...(br ? ['br' as const] : []), ...(gz ? ['gzip' as const] : [])];
  if (!held) return { encodings };
  const body = (copy: unknown) => (Buffer.isBuffer(copy) ? heldBody(copy) : undefined);
  return { encodings, held: { identity: heldBody(held), br: body(br), gzip: body(gz) } };
}

/** Files looked at once while a release is loaded: enough to keep the disk busy, few enough to hold little memory. */
const LOAD_CONCURRENCY = 16;

/**
 * Describes a built client directory for serving (each page's CSP read from it). A file the
 * release shares with the one served (`previous`: a page a publish kept, an asset) keeps the
 * served description; `known` is what the release's build knows of its files.
 */
export async function loadStaticSite(dir: string, previous?: { dir: string; files: StaticMap }, known?: ReleaseFiles): Promise<StaticMap> {
  const map: StaticMap = new Map();
  const files = known?.files ?? (await walk(dir)).filter((f) => !f.endsWith('.br') && !f.endsWith('.gz'));
  // The files the build links from the release that is served are those of its map.
  const keptFromServed =
    known?.keptFrom !== undefined && previous !== undefined && path.resolve(known.keptFrom) === path.resolve(previous.dir);
  const loadOne = async (rel: string) => {
    const full = path.join(dir, rel);
    const urlRel = rel.split(path.sep).join('/');
    const key = `/${urlRel}`;
    const kept = previous?.files.get(key);
    // Not linked yet: served from the release it is kept from until compressMissing moves it here.
    if (kept && keptFromServed && known!.kept.has(rel)) return void map.set(key, { ...kept, path: path.join(previous!.dir, rel) });
    if (kept && (await sameFile(full, path.join(previous!.dir, rel)))) return void map.set(key, { ...kept, path: full });
    const onDisk = servedFromDisk(urlRel);
    // A page the build wrote and that is served from disk is not read again.
    const written = onDisk ? known?.written?.get(rel) : undefined;
    const body = written || (onDisk && !rel.endsWith('.html')) ? undefined : await fs.readFile(full);
    const headers = written ?? (body ? pageHeaders(rel, body) : {});
    map.set(key, {
      path: full,
      // A page the build wrote is served without compressed copies until `compressMissing` has made them.
      ...(written ? { encodings: [] } : await copiesOf(full, onDisk ? undefined : body)),
      type: mime.contentType(path.extname(rel)) || 'application/octet-stream',
      cacheControl: cacheControlFor(urlRel),
      csp: headers.csp,
      robots: headers.robots,
    });
  };
  await eachAtMost(files, LOAD_CONCURRENCY, loadOne);
  // Clean URLs as keys of their own, so the hot path finds a page with one `get`.
  // `/a.html` wins over `/a/index.html`, as in `lookup`.
  const pages = [...map.keys()].filter((k) => k.endsWith('.html'));
  pages.sort((a, b) => Number(a.endsWith('/index.html')) - Number(b.endsWith('/index.html')));
  for (const key of pages) {
    const file = map.get(key)!;
    const clean = key === '/index.html' ? '/' : key.replace(/(\/index)?\.html$/, '');
    if (clean && !map.has(clean)) map.set(clean, file);
  }
  return map;
}
