import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { pathToFileURL } from 'node:url';
import { isSnapshotRow, type RenderPage, type SiteContent } from '../content/site-content';
import { currentSiteUrl } from '../env';
import { projectRoot } from '../paths';
import { pageFile, releasePaths } from '../content/routes';
import { readsShared, readValue, recordReads, type Read } from '../content/reads';
import { log } from '../log';
import { writePage, type WrittenFile } from '../web/static-site';

/*
 * Render on publish: the server bundle (dist/server) already holds Astro's renderer and every
 * page, so a release is made in this process, with no second bundler: the bundle's client files
 * (hashed assets, public/) are linked in, then each route of `content/routes.ts` is rendered from the
 * content snapshot and written as the file a static build would write.
 */

function serverEntry(): string {
  return path.join(projectRoot(), 'dist', 'server', 'entry.mjs');
}

/** The bundle's `renderPage`: the same module instance the server imported to serve requests. */
async function bundleRenderer(): Promise<RenderPage> {
  const mod = (await import(pathToFileURL(serverEntry()).href)) as { renderPage?: RenderPage };
  if (!mod.renderPage) throw new Error('the server bundle cannot render pages: run `npm run build`');
  return mod.renderPage;
}

async function* filesUnder(dir: string, base = dir): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full, base);
    else if (entry.isFile()) yield path.relative(base, full);
  }
}

/** Directories made so far under a release's `client/`: each is made once, not once per file. */
class Dirs {
  private made = new Set<string>();
  async ensure(dir: string): Promise<void> {
    if (this.made.has(dir)) return;
    await fs.mkdir(dir, { recursive: true });
    this.remember(dir);
  }
  ensureSync(dir: string): void {
    if (this.made.has(dir)) return;
    fsSync.mkdirSync(dir, { recursive: true });
    this.remember(dir);
  }
  private remember(dir: string): void {
    for (let d = dir; !this.made.has(d) && d !== path.dirname(d); d = path.dirname(d)) this.made.add(d);
  }
}

/** Hard links (one file system: both are inside the project) of every file of `from` under `to`; answers their paths. */
async function linkTree(from: string, to: string, dirs: Dirs): Promise<string[]> {
  const files: string[] = [];
  for await (const rel of filesUnder(from)) {
    const target = path.join(to, rel);
    await dirs.ensure(path.dirname(target));
    await fs.link(path.join(from, rel), target).catch(() => fs.copyFile(path.join(from, rel), target));
    files.push(rel);
  }
  return files;
}

/**
 * What a builder made, so that checking, compressing and loading the release need not walk it
 * and `stat` every file again: paths are relative to `client/`, with `/` between names.
 */
interface BuiltFiles {
  /** Every file of `client/` but the compressed copies (`.br`, `.gz`). */
  files: string[];
  /**
   * The files that are (once `finish` has run) hard links of the files of `previousDir`'s
   * `client/` of the same name, with their compressed copies where that release had them: pages
   * the previous release checked and compressed, and the live process may already hold in memory.
   */
  kept: Set<string>;
  /** The pages it rendered (static-site.ts `writePage`; their compressed copies are made once the release is live). */
  written: Map<string, WrittenFile>;
  /**
   * Completes the release on disk: links the kept pages (thousands of links take a third of a
   * second at 3,000 articles, so a publish serves the release from memory first) and records its
   * reads. Answers the pages it had to write again, whose compressed copies are still to be made.
   */
  finish?: () => Promise<string[]>;
}

/**
 * Makes the static pages of `content` in `outDir/client` (`renderBuilder` renders them with
 * the server bundle). `previousDir`, the live release's directory when it was built by the same
 * code, lets it keep the pages a change does not touch. A builder that answers nothing leaves
 * the release to be walked.
 */
export type Builder = (outDir: string, content: SiteContent, previousDir?: string) => Promise<BuiltFiles | void>;

/** The not-found pages answer 404 by design; every other route must answer 200. */
const expectedStatus = (urlPath: string) => (urlPath.endsWith('/404') ? 404 : 200);

/**
 * Beside a release's `client/` (so not served): what each page read of the content, as indexes
 * into one list of distinct reads (most pages share the layout's), and a digest of what each read
 * gave. The next publish renders a page again only if one of its reads now gives something else
 * (content/reads.ts); each distinct read is resolved once. The reads and the pages' lists (which
 * grow with the article count: each page of /insights reads every article's date) are in one file,
 * which a publish that changed no page's reads links from the previous release; what the reads
 * gave (which any edit changes) is in another.
 */
const READS_FILE = 'render-reads.json';
const VALUES_FILE = 'render-values.json';
interface RenderReads {
  site: string;
  /** Distinct reads, each as its JSON text. */
  reads: string[];
  /** Per URL path, the indexes of the reads its page made. */
  pages: Record<string, number[]>;
}
interface Recorded extends RenderReads {
  /** What each read gave in this release's content (readValue). */
  values: string[];
}

/**
 * The reads of the last release this process built: the next publish, built from it, then does
 * not parse them again (megabytes at thousands of articles). Releases are never rewritten, so
 * the directory names them.
 */
let lastBuilt:
  | {
      dir: string;
      recorded: Recorded;
      content: SiteContent;
      index: Map<string, number>;
      parsed: (Read | undefined)[];
      /** The bundle's client files it linked in (with their compressed copies). */
      assets: string[];
    }
  | undefined;

/** The last release this process built, if it is the one in `dir`. */
const builtIn = (dir: string | undefined) => (dir !== undefined && lastBuilt?.dir === path.resolve(dir) ? lastBuilt : undefined);

async function previousReads(previousDir: string | undefined, site: string): Promise<Recorded | undefined> {
  if (!previousDir) return undefined;
  const saved =
    builtIn(previousDir)?.recorded ??
    (await Promise.all([fs.readFile(path.join(previousDir, READS_FILE), 'utf8'), fs.readFile(path.join(previousDir, VALUES_FILE), 'utf8')])
      .then(([reads, values]) => ({ ...(JSON.parse(reads) as RenderReads), values: JSON.parse(values) as string[] }))
      .catch(() => undefined));
  return saved?.site === site && Array.isArray(saved.reads) && Array.isArray(saved.values) && saved.values.length === saved.reads.length
    ? saved
    : undefined;
}

/**
 * Hard links of a page of the previous release and of its compressed copies, if it has them (a
 * small page has none; one compressed after its release went live may have none yet, and the new
 * release then makes them): false when the page could not be linked, 'partly' when a compressed
 * copy it has could not be.
 * Synchronous: three links take microseconds, and a publish keeps thousands of pages (the caller
 * lets other work run between batches).
 */
function keepPage(fromClient: string, toClient: string, file: string, dirs: Dirs): boolean | 'partly' {
  const target = path.join(toClient, file);
  dirs.ensureSync(path.dirname(target));
  try {
    fsSync.linkSync(path.join(fromClient, file), target);
  } catch {
    return false;
  }
  let whole = true;
  for (const ext of ['.br', '.gz']) {
    try {
      fsSync.linkSync(path.join(fromClient, file + ext), target + ext);
    } catch (err) {
      // No copy (a small page, or one not compressed yet): nothing to link.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') whole = false;
    }
  }
  return whole || 'partly';
}

/** Rendered pages being written at once (libuv's pool has four threads). */
const WRITES_IN_FLIGHT = 4;

/**
 * A page that renders leaves its strings and buffers behind, and V8 lets such garbage grow its
 * heap well past what is alive before it collects: about 150 MB while 3,000 articles render
 * again, all of it on top of the idle server. Every GC_CHECK_EVERY pages the heap is looked at,
 * and past GC_ABOVE_BYTES more than at the start of the render it is collected at once (about
 * 50 ms with 3,000 articles in the snapshot, some ten times in such a render). In the growth
 * benchmark the server's peak over idle fell from 73-89 MB to 41 MB, and the render took no
 * longer there (6.6 and 8.3 s against 7.8 and 8.6 s without; run to run it varies by a third).
 * `gc` is there when node runs with --expose-gc, as `npm start` does.
 */
const GC_CHECK_EVERY = 64;
const GC_ABOVE_BYTES = 32 * 1024 * 1024;
const collectGarbage = (globalThis as { gc?: () => void }).gc;
const heapUsed = () => v8.getHeapStatistics().used_heap_size;

/** Pages kept between two turns of the event loop (a few milliseconds of links). */
const KEEP_BATCH = 100;

/**
 * The reads that some page made, numbered again in their order, each page's list with the new
 * numbers, and the old number of each read kept; `undefined` when every read is still made by
 * some page (the numbering stays).
 */
function compact(
  reads: string[],
  pages: Record<string, number[]>,
): { reads: string[]; pages: Record<string, number[]>; from: number[] } | undefined {
  const renumbered = new Int32Array(reads.length).fill(-1);
  for (const list of Object.values(pages)) for (const i of list) renumbered[i] = 0;
  const from: number[] = [];
  for (let i = 0; i < reads.length; i++) if (renumbered[i] === 0) renumbered[i] = from.push(i) - 1;
  if (from.length === reads.length) return undefined;
  return {
    reads: from.map((i) => reads[i]!),
    pages: Object.fromEntries(Object.entries(pages).map(([page, list]) => [page, list.map((i) => renumbered[i]!)])),
    from,
  };
}

const sameList = (a: number[] | undefined, b: number[]) => a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

/** The Builder that renders with the server bundle (the default of `buildRelease`). */
export function renderBuilder(render?: RenderPage): Builder {
  return async (outDir, content, previousDir) => {
    const renderPage = render ?? (await bundleRenderer());
    const client = path.join(outDir, 'client');
    const dirs = new Dirs();
    const last = builtIn(previousDir);
    const dist = path.join(projectRoot(), 'dist', 'client');
    const kept = new Set<string>();
    // The bundle's client files (hashed assets, public/): linked now, unless the live release was
    // built by this process from the same bundle. Its copies are then the ones served, and the
    // links wait for `finish` with the kept pages.
    const assets = last ? last.assets : await linkTree(dist, client, dirs);
    const files = [...assets];
    if (last) for (const f of assets) if (!/\.(br|gz)$/.test(f)) kept.add(f);
    // Read at each publish, as a static build reads it: canonical links and feeds use it.
    const site = currentSiteUrl();
    const previous = await previousReads(previousDir, site);
    // The reads numbered as in the previous release (a kept page keeps its list as it is), then
    // the new ones; what each gives now is worked out once per distinct read. When this process
    // built the previous release, its index of the reads and their parsed paths are taken as they
    // are (not copied: tens of thousands at thousands of articles), and new reads go beside them.
    const fromLast = previous !== undefined && last?.recorded === previous;
    const base = previous?.reads ?? [];
    const baseIndex = fromLast ? last!.index : new Map<string, number>(base.map((key, i) => [key, i]));
    const baseParsed: (Read | undefined)[] = fromLast ? last!.parsed : [];
    const added: string[] = [];
    const addedIndex = new Map<string, number>();
    const addedParsed: Read[] = [];
    const indexOf = (key: string) => {
      let i = baseIndex.get(key) ?? addedIndex.get(key);
      if (i === undefined) addedIndex.set(key, (i = base.length + added.push(key) - 1));
      return i;
    };
    const readAt = (i: number): Read =>
      i < base.length
        ? (baseParsed[i] ??= JSON.parse(base[i]!) as Read)
        : (addedParsed[i - base.length] ??= JSON.parse(added[i - base.length]!) as Read);
    // The content the previous release was rendered from, when this process rendered it: a read
    // that reaches an insight row both snapshots share gives what it gave (no digest again).
    const before = fromLast ? last!.content : undefined;
    const values: string[] = [];
    const valueNow = (i: number) =>
      (values[i] ??=
        before && i < base.length && readsShared(readAt(i), content, before, isSnapshotRow)
          ? previous!.values[i]!
          : readValue(content, readAt(i)));
    // Per read of the previous release: 0 not worked out yet, 1 gives what it gave, 2 changed.
    const state = new Uint8Array(base.length);
    const anyChanged = (list: number[]) => {
      for (const i of list) {
        let s = state[i]!;
        if (s === 0) state[i] = s = valueNow(i) === previous!.values[i] ? 1 : 2;
        if (s === 2) return true;
      }
      return false;
    };
    const pages: Record<string, number[]> = {};
    // Whether the reads file says something else than the previous release's.
    let readsChanged = !previous;
    let rendered = 0;
    const heapAtStart = heapUsed();
    // Pages kept from the live release: linked by `finish`, once the release is served.
    const toKeep: { urlPath: string; rel: string }[] = [];
    const written = new Map<string, WrittenFile>();
    // A rendered page is written while the next one renders: a few at a time, so the pages in
    // hand stay a few hundred kilobytes whatever the page count.
    const writing = new Set<Promise<void>>();
    let writeError: unknown;
    const writeLater = async (rel: string, body: Buffer) => {
      while (writing.size >= WRITES_IN_FLIGHT) await Promise.race(writing);
      // A write that failed (a full disk) fails the release now, not after every other page.
      if (writeError) throw writeError;
      const done: Promise<void> = writePage(path.join(client, rel), body)
        .then(
          (file) => void written.set(rel, file),
          (err: unknown) => void (writeError ??= err),
        )
        .finally(() => writing.delete(done));
      writing.add(done);
    };
    const allWritten = async () => {
      await Promise.all(writing);
      if (writeError) throw writeError;
    };
    const renderInto = async (urlPath: string, rel: string) => {
      const recorded = recordReads(content);
      const res = await renderPage(urlPath, site, recorded.content);
      if (res.status !== expectedStatus(urlPath)) throw new Error(`rendering ${urlPath} answered ${res.status}`);
      await dirs.ensure(path.dirname(path.join(client, rel)));
      await writeLater(rel, Buffer.from(await res.arrayBuffer()));
      return recorded.keys().map(indexOf);
    };
    for (const urlPath of releasePaths(content)) {
      // A stored slug that is not a plain path segment would name another file: refused.
      if (new URL(urlPath, site).pathname !== urlPath) throw new Error(`not a page path: ${JSON.stringify(urlPath)}`);
      const before = previous?.pages[urlPath];
      const rel = pageFile(urlPath).slice(1);
      files.push(rel);
      if (before && !anyChanged(before)) {
        kept.add(rel);
        toKeep.push({ urlPath, rel });
        pages[urlPath] = before;
        continue;
      }
      pages[urlPath] = await renderInto(urlPath, rel);
      if (!sameList(before, pages[urlPath])) readsChanged = true;
      if (++rendered % GC_CHECK_EVERY === 0 && collectGarbage && heapUsed() > heapAtStart + GC_ABOVE_BYTES) collectGarbage();
    }
    await allWritten();
    log.info('pages rendered', { rendered, kept: toKeep.length });

    const finish = async (): Promise<string[]> => {
      // A page the live release lacks on disk (or that cannot be linked) is rendered again: its
      // reads say it would come out the same. Its compressed copies are then the caller's to make.
      const again: string[] = [];
      if (last) {
        for (const f of assets) {
          const target = path.join(client, f);
          dirs.ensureSync(path.dirname(target));
          try {
            fsSync.linkSync(path.join(dist, f), target);
          } catch {
            fsSync.copyFileSync(path.join(dist, f), target);
          }
        }
      }
      for (let k = 0; k < toKeep.length; k++) {
        const { urlPath, rel } = toKeep[k]!;
        const linked = keepPage(path.join(previousDir!, 'client'), client, rel, dirs);
        if (linked !== true) {
          if (linked === 'partly') for (const ext of ['.br', '.gz']) await fs.rm(path.join(client, rel + ext), { force: true });
          else pages[urlPath] = await renderInto(urlPath, rel);
          again.push(rel);
          kept.delete(rel);
        }
        if ((k + 1) % KEEP_BATCH === 0) await new Promise((r) => setImmediate(r));
      }
      await allWritten();
      if (previous && Object.keys(previous.pages).length !== Object.keys(pages).length) readsChanged = true;
      const all = added.length ? [...base, ...added] : base;
      const smaller = readsChanged ? compact(all, pages) : undefined;
      const saved: Recorded = { site, reads: smaller?.reads ?? all, pages: smaller?.pages ?? pages, values: [] };
      const from = (i: number) => (smaller ? smaller.from[i]! : i);
      saved.values = saved.reads.map((_, i) => valueNow(from(i)));
      const same = saved.reads === base;
      const index = same ? baseIndex : new Map(saved.reads.map((key, i) => [key, i]));
      const parsed = same ? baseParsed : saved.reads.map((_, i) => readAt(from(i)));
      const readsFile = path.join(outDir, READS_FILE);
      const unchanged =
        !readsChanged &&
        (await fs.link(path.join(previousDir!, READS_FILE), readsFile).then(
          () => true,
          () => false,
        ));
      if (!unchanged) await fs.writeFile(readsFile, JSON.stringify({ site, reads: saved.reads, pages: saved.pages } satisfies RenderReads));
      await fs.writeFile(path.join(outDir, VALUES_FILE), JSON.stringify(saved.values));
      lastBuilt = { dir: path.resolve(outDir), recorded: saved, content, index, parsed, assets };
      return again;
    };
    return { files: files.filter((f) => !/\.(br|gz)$/.test(f)), kept, written, finish };
  };
}
