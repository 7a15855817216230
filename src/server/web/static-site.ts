import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { baseSecurityHeaders, htmlCsp, inlineScriptHashes } from './security-headers';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.xml', '.txt', '.svg', '.webmanifest']);

/**
 * A file's bytes as the server holds them: in memory, or (the pages of a collection that grows
 * with the content, `servedFromDisk`) as the path of a file of the release, read when asked for.
 */
export type Body = Buffer | DiskBody;

/** A release file served from disk: its path, and its length for the headers. */
export class DiskBody {
  constructor(
    readonly path: string,
    readonly length: number,
  ) {}
}

/**
 * The bodies read from disk most recently, up to HOT_BYTES in all (least recently served first
 * out): the articles read most are answered from memory, at a few megabytes whatever the article
 * count. Keyed by path: a release's files are never rewritten.
 */
const HOT_BYTES = 16 * 1024 * 1024;
const hot = new Map<string, Buffer>();
let hotBytes = 0;

/** The bytes of a body served from disk, if they are among the hot ones. */
export function hotBytesOf(body: DiskBody): Buffer | undefined {
  const bytes = hot.get(body.path);
  if (bytes) {
    hot.delete(body.path);
    hot.set(body.path, bytes);
  }
  return bytes;
}

/** The bytes of a body: as they are, or read from the release (and kept among the hot ones). */
export async function bytesOf(body: Body): Promise<Buffer> {
  if (!(body instanceof DiskBody)) return body;
  const kept = hotBytesOf(body);
  if (kept) return kept;
  const bytes = await fs.readFile(body.path);
  if (!hot.has(body.path)) {
    hot.set(body.path, bytes);
    hotBytes += bytes.length;
    for (const [key, old] of hot) {
      if (hotBytes <= HOT_BYTES) break;
      hot.delete(key);
      hotBytes -= old.length;
    }
  }
  return bytes;
}

export interface StaticFile {
  body: Body;
  br?: Body;
  gz?: Body;
  type: string;
  /** The identity body's entity tag; each encoding has its own (`etagFor`). */
  etag: string;
  cacheControl: string;
  csp?: string;
  /** A page's own `<meta name="robots">` (`noindex` until the site is launched), sent as X-Robots-Tag. */
  robots?: string;
  /**
   * The complete response headers for a 200, flat `[name, value, …]` for `writeHead`, per encoding
   * and per http/https: the hot path writes them in one call, with no per-request header work.
   */
  raw: Record<Encoding, [plain: string[], secure: string[]] | undefined>;
}

export type Encoding = 'identity' | 'br' | 'gzip';

/** Each encoding of a file is its own representation, with its own entity tag. */
export function etagFor(file: Pick<StaticFile, 'etag'>, encoding: Encoding): string {
  return encoding === 'identity' ? file.etag : `${file.etag.slice(0, -1)}-${encoding === 'br' ? 'br' : 'gz'}"`;
}

/**
 * The encoding a client gets: brotli, then gzip, when it accepts them with a non-zero weight
 * (`br;q=0` refuses brotli; `*` stands for what it does not name), else the plain body.
 */
export function pickEncoding(accept: string | undefined, file: Pick<StaticFile, 'br' | 'gz'>): Encoding {
  if (!accept) return 'identity';
  // Browsers send a plain list (`gzip, deflate, br, zstd`): no weights to read, and this runs on
  // every page request.
  if (!accept.includes(';') && !accept.includes('*')) {
    if (file.br && /\bbr\b/i.test(accept)) return 'br';
    if (file.gz && /\bgzip\b/i.test(accept)) return 'gzip';
    return 'identity';
  }
  const weights = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q) || 0);
  }
  const accepts = (coding: string) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
  if (file.br && accepts('br')) return 'br';
  if (file.gz && accepts('gzip')) return 'gzip';
  return 'identity';
}

/** If-None-Match: a list of tags or `*`, compared weakly (a `W/` prefix does not matter). */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function rawHeaders(file: FileWithoutHeaders, encoding: Encoding, secure: boolean): string[] {
  const body: Body = encoding === 'br' ? file.br! : encoding === 'gzip' ? file.gz! : file.body;
  const headers: Record<string, string> = {
    ...baseSecurityHeaders(secure),
    'content-type': file.type,
    'cache-control': file.cacheControl,
    vary: 'Accept-Encoding',
    etag: etagFor(file, encoding),
    'content-length': String(body.length),
  };
  if (file.csp) headers['content-security-policy'] = file.csp;
  if (file.robots) headers['x-robots-tag'] = file.robots;
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  return Object.entries(headers).flat();
}

/** The headers a 304 carries: what a cache needs to refresh its copy of this encoding. */
export function notModifiedHeaders(file: Pick<StaticFile, 'etag' | 'cacheControl'>, encoding: Encoding): string[] {
  return ['etag', etagFor(file, encoding), 'cache-control', file.cacheControl, 'vary', 'Accept-Encoding'];
}

type FileWithoutHeaders = Omit<StaticFile, 'raw'>;

function withRawHeaders(file: FileWithoutHeaders): StaticFile {
  const both = (e: Encoding): [string[], string[]] => [rawHeaders(file, e, false), rawHeaders(file, e, true)];
  return { ...file, raw: { identity: both('identity'), br: file.br && both('br'), gzip: file.gz && both('gzip') } };
}

const entityTag = (body: Buffer) => `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

/** Smaller bodies are sent as they are: compressing them saves less than the header costs. */
const MIN_COMPRESSED = 256;

/** A body's brotli copy at `quality`, made on libuv's pool. */
const brotliPage = (body: Buffer, quality: number): Promise<Buffer> =>
  brotli(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      // The smallest window that holds the file: same output size, a fraction of the memory.
      [zlib.constants.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(16, Math.ceil(Math.log2(body.length + 1)))),
    },
  });

/** A body's brotli (at `quality`) and gzip (at `level`) copies, made on libuv's pool. */
function compress(body: Buffer, quality: number, level: number): Promise<[Buffer, Buffer]> {
  return Promise.all([brotliPage(body, quality), gzip(body, { level })]);
}

/**
 * A body made at run time (a public API answer, public-api-cache.ts) as a file served like the
 * release's: compressed once here, quickly (brotli 5: a few milliseconds on the first request
 * after a change), with its entity tags and headers.
 */
export async function memoryFile(body: Buffer, type: string, cacheControl: string, csp?: string): Promise<StaticFile> {
  const [br, gz] = body.length < MIN_COMPRESSED ? [undefined, undefined] : await compress(body, 5, 6);
  return withRawHeaders({ body, br, gz, type, etag: entityTag(body), cacheControl, csp });
}

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
  etag: string;
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
  return { etag: entityTag(body), ...pageHeaders(full, body), length: body.length };
}

/** Whether a file of this name and length is served with compressed copies. */
const wantsCompressedCopies = (rel: string, length: number) => COMPRESSIBLE.has(path.extname(rel)) && length >= MIN_COMPRESSED;

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

/**
 * Makes the compressed copies that the files of a served release (`map`, loaded from `dir`) lack,
 * a few at a time, and serves each file with them as soon as they are written. A copy already on
 * disk (made by another instance sharing the directory) is taken as it is. Stops between files
 * once `stillServed` says no: the next release compresses what it kept of these without copies.
 * Answers how many files it compressed.
 */
export async function compressMissing(dir: string, map: StaticMap, stillServed: () => boolean = () => true): Promise<number> {
  const keys = new Map<StaticFile, string[]>();
  for (const [key, file] of map) {
    const list = keys.get(file);
    if (list) list.push(key);
    else keys.set(file, [key]);
  }
  // A file's first key is its path (loadStaticSite adds the clean URLs after the files).
  const lacking = [...keys].filter(([file, [key]]) => wantsCompressedCopies(key!, file.body.length) && (!file.br || !file.gz));
  let done = 0;
  await eachAtMost(lacking, COMPRESS_LATER_CONCURRENCY, async ([file, fileKeys]) => {
    if (!stillServed()) return;
    const full = path.join(dir, fileKeys[0]!);
    const onDisk = file.body instanceof DiskBody;
    // Read from the release, not through `bytesOf`: the hot pages are the ones visitors read.
    const body = onDisk ? await fs.readFile(full) : (file.body as Buffer);
    const variant = async (ext: string, make: () => Promise<Buffer>): Promise<Body> => {
      const there = await existingCopy(full + ext, onDisk);
      if (there) return there;
      const bytes = await make();
      await writeWhole(full + ext, bytes);
      return onDisk ? new DiskBody(full + ext, bytes.length) : bytes;
    };
    const [br, gz] = await Promise.all([
      file.br ?? variant('.br', () => brotliPage(body, PAGE_BROTLI_QUALITY)),
      file.gz ?? variant('.gz', () => gzip(body, { level: PAGE_GZIP_LEVEL })),
    ]);
    if (!stillServed()) return;
    const { raw: _raw, ...rest } = file;
    const compressed = withRawHeaders({ ...rest, br, gz });
    for (const key of fileKeys) if (map.get(key) === file) map.set(key, compressed);
    done++;
  });
  return done;
}

/** A compressed copy already on disk, as the map holds it: a handle for a page, else its bytes. */
const existingCopy = (file: string, onDisk: boolean): Promise<Body | undefined> =>
  onDisk
    ? fs.stat(file).then(
        (st) => new DiskBody(file, st.size),
        () => undefined,
      )
    : fs.readFile(file).catch(() => undefined);

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
    if (body.length < MIN_COMPRESSED) return;
    if (previousDir && (await reuseCompressed(body, path.join(previousDir, rel), full))) return;
    const [br, gz] = await compress(body, quality, 9);
    await Promise.all([fs.writeFile(`${full}.br`, br), fs.writeFile(`${full}.gz`, gz)]);
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
const NEVER_CACHED = new Set(['admin.html', 'auth.html', 'auth/forgot.html', 'auth/reset.html']);

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

/** URL path → file key. `/about` → `about.html`, `/` → `index.html`. */
export type StaticMap = Map<string, StaticFile>;

/**
 * What the build of a release in this process knows of its client directory: every file but the
 * compressed copies, and those that are hard links (with their compressed copies) of the files of
 * the same name in `keptFrom`. Taking the release into memory then needs no walk, and no `stat`
 * of the files it kept.
 */
export interface ReleaseFiles {
  files: string[];
  kept: ReadonlySet<string>;
  keptFrom?: string;
  /** The files the build wrote with `writePage`: those served from disk are not read again. */
  written?: ReadonlyMap<string, WrittenFile>;
}
const builtHere = new Map<string, ReleaseFiles>();

/** Records what a build knows of the files of `dir`, for the next `loadStaticSite(dir)`. */
export function rememberReleaseFiles(dir: string, files: ReleaseFiles): void {
  builtHere.set(path.resolve(dir), files);
  // A release built and never taken into memory (a test, a failed swap) is forgotten after a few.
  for (const key of builtHere.keys()) if (builtHere.size > 4) builtHere.delete(key);
}

/**
 * The pages whose number grows with the content (one per article, and the listing's later pages)
 * are served from the release on disk, with only their headers in memory: at thousands of articles
 * their bytes would hold hundreds of megabytes, twice over while a publish swaps every page. The
 * fixed pages, assets and not-found pages stay in memory.
 */
function servedFromDisk(rel: string): boolean {
  return rel.startsWith('insights/') && rel.endsWith('.html') && rel !== 'insights/404.html';
}

/** A kept file as served from another release directory: the same headers, its bytes read from `full`. */
function rebased(file: StaticFile, full: string): StaticFile {
  if (!(file.body instanceof DiskBody)) return file;
  const moved = (b: Body | undefined, ext: string) => b && new DiskBody(full + ext, b.length);
  return { ...file, body: moved(file.body, '')!, br: moved(file.br, '.br'), gz: moved(file.gz, '.gz') };
}

/** Files read at once while a release is loaded: enough to keep the disk busy, few enough to hold little memory. */
const LOAD_CONCURRENCY = 16;

/** Loads a built client directory into memory with its precompressed variants and per-page CSP. */
export async function loadStaticSite(dir: string, previous?: { dir: string; files: StaticMap }): Promise<StaticMap> {
  const map: StaticMap = new Map();
  const known = builtHere.get(path.resolve(dir));
  builtHere.delete(path.resolve(dir));
  const files = known?.files ?? (await walk(dir)).filter((f) => !f.endsWith('.br') && !f.endsWith('.gz'));
  // The files the build linked from the release that is served are those of its map.
  const keptFromServed =
    known?.keptFrom !== undefined && previous !== undefined && path.resolve(known.keptFrom) === path.resolve(previous.dir);
  const loadOne = async (rel: string) => {
    const full = path.join(dir, rel);
    const key = '/' + rel.split(path.sep).join('/');
    // A file the new release shares with the one served (a hard link: a page a publish kept,
    // an asset) is already in memory with its headers: taken as it is, not read again.
    const kept = previous?.files.get(key);
    if (kept && ((keptFromServed && known!.kept.has(rel)) || (await sameFile(full, path.join(previous!.dir, rel))))) {
      map.set(key, rebased(kept, full));
      return;
    }
    const ext = path.extname(rel);
    const urlRel = rel.split(path.sep).join('/');
    const onDisk = servedFromDisk(urlRel);
    const type = TYPES[ext] ?? 'application/octet-stream';
    const written = onDisk ? known?.written?.get(rel) : undefined;
    if (written) {
      // Served without compressed copies until `compressMissing` has made them.
      const { etag, csp, robots } = written;
      map.set(
        key,
        withRawHeaders({ body: new DiskBody(full, written.length), type, etag, csp, robots, cacheControl: cacheControlFor(urlRel) }),
      );
      return;
    }
    const body = await fs.readFile(full);
    const [br, gz] = await Promise.all([existingCopy(full + '.br', onDisk), existingCopy(full + '.gz', onDisk)]);
    const file: FileWithoutHeaders = {
      body: onDisk ? new DiskBody(full, body.length) : body,
      br,
      gz,
      type,
      etag: entityTag(body),
      cacheControl: cacheControlFor(urlRel),
      ...pageHeaders(rel, body),
    };
    map.set(key, withRawHeaders(file));
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

/** Whether two paths are the same file (hard links of it), with its compressed copies. */
async function sameFile(a: string, b: string): Promise<boolean> {
  for (const ext of ['', '.br', '.gz']) {
    const [x, y] = await Promise.all([fs.stat(a + ext).catch(() => undefined), fs.stat(b + ext).catch(() => undefined)]);
    if (!x !== !y || (x && y && (x.ino !== y.ino || x.dev !== y.dev))) return false;
  }
  return true;
}

/** The file for a request path: exact file, `{path}.html`, or `{path}/index.html`. */
export function lookup(map: StaticMap, pathname: string): StaticFile | undefined {
  let p: string;
  try {
    p = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (p.includes('\0') || p.includes('..')) return undefined;
  if (p.length > 1 && p.endsWith('/')) p = p.replace(/\/+$/, '');
  if (p === '/' || p === '') return map.get('/index.html');
  return map.get(p) ?? map.get(`${p}.html`) ?? map.get(`${p}/index.html`);
}
