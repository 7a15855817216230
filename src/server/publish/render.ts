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
import { writePage, type WrittenFile } from './release-files';

/*
 * Render on publish: the server bundle (dist/server) already holds Astro's renderer and every
 * page, so a release is made in this process, with no second bundler: the bundle's client files
 * (hashed assets, public/) are linked in, then each route of `content/routes.ts` is rendered from the
 * content snapshot and written as the file a static build would write.
 */

function serverEntry(): string {
  return path.join(projectRoot(), 'dist', 'server', 'entry.mjs');
}

/** How pages are rendered, and their reads recorded by the same copy of content/reads.ts as the pages use (`findItem`). */
interface Renderer {
  render: RenderPage;
  record: typeof recordReads;
}

/**
 * The bundle's `renderPage` and `recordReads`: the same module instances the server imported to
 * serve requests. A process that loaded the publisher from the sources (a test) records with the
 * bundle's copy too, which the pages' `findItem` knows.
 */
async function bundleRenderer(): Promise<Renderer> {
  const mod = (await import(pathToFileURL(serverEntry()).href)) as {
    renderPage?: RenderPage;
    bundleApi?: { recordReads?: typeof recordReads };
  };
  if (!mod.renderPage) throw new Error('the server bundle cannot render pages: run `npm run build`');
  return { render: mod.renderPage, record: mod.bundleApi?.recordReads ?? recordReads };
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
   * the previous release checked and compressed, and the live process may already describe.
   */
  kept: Set<string>;
  /** The pages it rendered (release-files.ts `writePage`; their compressed copies are made once the release is live). */
  written: Map<string, WrittenFile>;
  /**
   * Completes the release on disk: links the kept pages (thousands of links take a third of a
   * second at 3,000 articles, so a publish serves the release first, those pages from the live
   * release's directory) and records its
   * reads. Answers the pages it had to write again, whose compressed copies are still to be made.
   */
  finish?: () => Promise<string[]>;
}

/**
 * Makes the static pages of `content` in `outDir/client` (`renderBuilder` renders them with
 * the server bundle). `previousDir`, the live release's directory when it was built by the same
 * code, lets it keep the pages a change does not touch; `memo`, the engine's (release-store.ts),
 * what it remembers of the last release it built. A builder that answers nothing leaves the
 * release to be walked.
 */
export type Builder = (outDir: string, content: SiteContent, previousDir?: string, memo?: BuildMemoSlot) => Promise<BuiltFiles | void>;

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
 * What an engine remembers of the last release it built: the next publish, built from it, then
 * does not parse its reads again (megabytes at thousands of articles), and a read that reaches an
 * insight row both snapshots share gives what it gave. Releases are never rewritten, so the
 * directory names them.
 */
export interface BuildMemo {
  dir: string;
  recorded: Recorded;
  /** The (frozen) content it was rendered from: the previous snapshot. */
  content: SiteContent;
  index: Map<string, number>;
  parsed: (Read | undefined)[];
  /** The bundle's client files it linked in (with their compressed copies). */
  assets: string[];
}

/** Where a builder keeps its memo between publishes: the engine's release store. */
export interface BuildMemoSlot {
  built?: BuildMemo;
}

async function previousReads(previousDir: string | undefined, site: string, last: BuildMemo | undefined): Promise<Recorded | undefined> {
  if (!previousDir) return undefined;
  const saved =
    last?.recorded ??
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

/**
 * The reads of a release being built: numbered as in the previous release (a kept page keeps its
 * list as it is), then the new ones; what each gives now is worked out once per distinct read.
 * When this engine built the previous release, its index of the reads and their parsed paths are
 * taken as they are (not copied: tens of thousands at thousands of articles), new reads go beside
 * them, and a read that reaches an insight row both snapshots share gives what it gave.
 */
class ReadBook {
  readonly base: string[];
  private readonly baseIndex: Map<string, number>;
  private readonly baseParsed: (Read | undefined)[];
  private readonly before: SiteContent | undefined;
  private readonly added: string[] = [];
  private readonly addedIndex = new Map<string, number>();
  private readonly addedParsed: Read[] = [];
  private readonly values: string[] = [];
  /** Per read of the previous release: 0 not worked out yet, 1 gives what it gave, 2 changed. */
  private readonly state: Uint8Array;

  constructor(
    private readonly content: SiteContent,
    readonly previous: Recorded | undefined,
    last: BuildMemo | undefined,
  ) {
    const fromLast = previous !== undefined && last?.recorded === previous;
    this.base = previous?.reads ?? [];
    this.baseIndex = fromLast ? last.index : new Map<string, number>(this.base.map((key, i) => [key, i]));
    this.baseParsed = fromLast ? last.parsed : [];
    this.before = fromLast ? last.content : undefined;
    this.state = new Uint8Array(this.base.length);
  }

  indexOf(key: string): number {
    let i = this.baseIndex.get(key) ?? this.addedIndex.get(key);
    if (i === undefined) this.addedIndex.set(key, (i = this.base.length + this.added.push(key) - 1));
    return i;
  }

  private readAt(i: number): Read {
    const n = this.base.length;
    return i < n
      ? (this.baseParsed[i] ??= JSON.parse(this.base[i]!) as Read)
      : (this.addedParsed[i - n] ??= JSON.parse(this.added[i - n]!) as Read);
  }

  private valueNow(i: number): string {
    return (this.values[i] ??=
      this.before && i < this.base.length && readsShared(this.readAt(i), this.content, this.before, isSnapshotRow)
        ? this.previous!.values[i]!
        : readValue(this.content, this.readAt(i)));
  }

  /** Whether a read of the previous release's page gives something else now. */
  anyChanged(list: number[]): boolean {
    for (const i of list) {
      let s = this.state[i]!;
      if (s === 0) this.state[i] = s = this.valueNow(i) === this.previous!.values[i] ? 1 : 2;
      if (s === 2) return true;
    }
    return false;
  }

  /** The reads to keep beside the release (renumbered when `readsChanged` and some are no longer made), and what each gives. */
  save(site: string, pages: Record<string, number[]>, readsChanged: boolean) {
    const all = this.added.length ? [...this.base, ...this.added] : this.base;
    const smaller = readsChanged ? compact(all, pages) : undefined;
    const from = (i: number) => (smaller ? smaller.from[i]! : i);
    const reads = smaller?.reads ?? all;
    const saved: Recorded = { site, reads, pages: smaller?.pages ?? pages, values: reads.map((_, i) => this.valueNow(from(i))) };
    const same = reads === this.base;
    const index = same ? this.baseIndex : new Map(reads.map((key, i) => [key, i]));
    const parsed = same ? this.baseParsed : reads.map((_, i) => this.readAt(from(i)));
    return { saved, index, parsed };
  }
}

/**
 * Writes rendered pages while the next ones render: a few at a time, so the pages in hand stay a
 * few hundred kilobytes whatever the page count. A write that failed (a full disk) fails the
 * release at the next write, not after every other page.
 */
class PageWriter {
  readonly written = new Map<string, WrittenFile>();
  private readonly writing = new Set<Promise<void>>();
  private error: unknown;

  constructor(private readonly client: string) {}

  async write(rel: string, body: Buffer): Promise<void> {
    while (this.writing.size >= WRITES_IN_FLIGHT) await Promise.race(this.writing);
    if (this.error) throw this.error;
    const done: Promise<void> = writePage(path.join(this.client, rel), body)
      .then(
        (file) => void this.written.set(rel, file),
        (err: unknown) => void (this.error ??= err),
      )
      .finally(() => this.writing.delete(done));
    this.writing.add(done);
  }

  async settled(): Promise<void> {
    await Promise.all(this.writing);
    if (this.error) throw this.error;
  }
}

/** One release being rendered: from `content`, beside the previous release in `previousDir` when there is one. */
class ReleaseRender {
  private readonly client: string;
  private readonly dirs = new Dirs();
  private readonly dist = path.join(projectRoot(), 'dist', 'client');
  private readonly last: BuildMemo | undefined;
  private readonly kept = new Set<string>();
  private readonly files: string[] = [];
  private readonly pages: Record<string, number[]> = {};
  /** Pages kept from the live release: linked by `finish`, once the release is served. */
  private readonly toKeep: { urlPath: string; rel: string }[] = [];
  private readonly writer: PageWriter;
  /** Read at each publish, as a static build reads it: canonical links and feeds use it. */
  private readonly site = currentSiteUrl();
  private assets: string[] = [];
  private book!: ReadBook;
  /** Whether the reads file says something else than the previous release's. */
  private readsChanged = false;

  constructor(
    private readonly renderer: Renderer,
    private readonly outDir: string,
    private readonly content: SiteContent,
    private readonly previousDir: string | undefined,
    private readonly memo: BuildMemoSlot | undefined,
  ) {
    this.client = path.join(outDir, 'client');
    this.writer = new PageWriter(this.client);
    const built = memo?.built;
    this.last = previousDir !== undefined && built?.dir === path.resolve(previousDir) ? built : undefined;
  }

  /**
   * The bundle's client files (hashed assets, public/): linked now, unless the live release was
   * built by this engine from the same bundle. Its copies are then the ones served, and the links
   * wait for `finish` with the kept pages. Then the previous release's reads.
   */
  async start(): Promise<void> {
    this.assets = this.last ? this.last.assets : await linkTree(this.dist, this.client, this.dirs);
    this.files.push(...this.assets);
    if (this.last) for (const f of this.assets) if (!/\.(br|gz)$/.test(f)) this.kept.add(f);
    const previous = await previousReads(this.previousDir, this.site, this.last);
    this.book = new ReadBook(this.content, previous, this.last);
    this.readsChanged = !previous;
  }

  private async renderInto(urlPath: string, rel: string): Promise<number[]> {
    const recorded = this.renderer.record(this.content);
    const res = await this.renderer.render(urlPath, this.site, recorded.content);
    if (res.status !== expectedStatus(urlPath)) throw new Error(`rendering ${urlPath} answered ${res.status}`);
    await this.dirs.ensure(path.dirname(path.join(this.client, rel)));
    await this.writer.write(rel, Buffer.from(await res.arrayBuffer()));
    return recorded.keys().map((key) => this.book.indexOf(key));
  }

  /** Renders every page whose reads give something else now; the others are kept (linked by `finish`). */
  async renderPages(): Promise<BuiltFiles> {
    let rendered = 0;
    const heapAtStart = heapUsed();
    const previous = this.book.previous;
    for (const urlPath of releasePaths(this.content)) {
      // A stored slug that is not a plain path segment would name another file: refused.
      if (new URL(urlPath, this.site).pathname !== urlPath) throw new Error(`not a page path: ${JSON.stringify(urlPath)}`);
      const before = previous?.pages[urlPath];
      const rel = pageFile(urlPath).slice(1);
      this.files.push(rel);
      if (before && !this.book.anyChanged(before)) {
        this.kept.add(rel);
        this.toKeep.push({ urlPath, rel });
        this.pages[urlPath] = before;
        continue;
      }
      this.pages[urlPath] = await this.renderInto(urlPath, rel);
      if (!sameList(before, this.pages[urlPath])) this.readsChanged = true;
      if (++rendered % GC_CHECK_EVERY === 0 && collectGarbage && heapUsed() > heapAtStart + GC_ABOVE_BYTES) collectGarbage();
    }
    await this.writer.settled();
    log.info('pages rendered', { rendered, kept: this.toKeep.length });
    return {
      files: this.files.filter((f) => !/\.(br|gz)$/.test(f)),
      kept: this.kept,
      written: this.writer.written,
      finish: () => this.finish(),
    };
  }

  /**
   * Links what the release keeps (the bundle's files when the previous release had them, the
   * kept pages), then saves its reads. A page the live release lacks on disk (or that cannot be
   * linked) is rendered again: its reads say it would come out the same. Answers those pages,
   * whose compressed copies are then the caller's to make.
   */
  private async finish(): Promise<string[]> {
    if (this.last) for (const f of this.assets) this.linkAsset(f);
    const again: string[] = [];
    for (let k = 0; k < this.toKeep.length; k++) {
      const { urlPath, rel } = this.toKeep[k]!;
      const linked = keepPage(path.join(this.previousDir!, 'client'), this.client, rel, this.dirs);
      if (linked !== true) {
        if (linked === 'partly') for (const ext of ['.br', '.gz']) await fs.rm(path.join(this.client, rel + ext), { force: true });
        else this.pages[urlPath] = await this.renderInto(urlPath, rel);
        again.push(rel);
        this.kept.delete(rel);
      }
      if ((k + 1) % KEEP_BATCH === 0) await new Promise((r) => setImmediate(r));
    }
    await this.writer.settled();
    await this.saveReads();
    return again;
  }

  private linkAsset(f: string): void {
    const target = path.join(this.client, f);
    this.dirs.ensureSync(path.dirname(target));
    try {
      fsSync.linkSync(path.join(this.dist, f), target);
    } catch {
      fsSync.copyFileSync(path.join(this.dist, f), target);
    }
  }

  /** Writes the release's reads (linked from the previous release when no page's list changed) and remembers them in the memo. */
  private async saveReads(): Promise<void> {
    const previous = this.book.previous;
    if (previous && Object.keys(previous.pages).length !== Object.keys(this.pages).length) this.readsChanged = true;
    const { saved, index, parsed } = this.book.save(this.site, this.pages, this.readsChanged);
    const readsFile = path.join(this.outDir, READS_FILE);
    const unchanged =
      !this.readsChanged &&
      (await fs.link(path.join(this.previousDir!, READS_FILE), readsFile).then(
        () => true,
        () => false,
      ));
    if (!unchanged)
      await fs.writeFile(readsFile, JSON.stringify({ site: this.site, reads: saved.reads, pages: saved.pages } satisfies RenderReads));
    await fs.writeFile(path.join(this.outDir, VALUES_FILE), JSON.stringify(saved.values));
    if (this.memo)
      this.memo.built = { dir: path.resolve(this.outDir), recorded: saved, content: this.content, index, parsed, assets: this.assets };
  }
}

/**
 * The Builder that renders with the server bundle (the default of `buildRelease`), or with
 * `render` (its reads recorded by this copy of content/reads.ts).
 */
export function renderBuilder(render?: RenderPage): Builder {
  return async (outDir, content, previousDir, memo) => {
    const renderer = render ? { render, record: recordReads } : await bundleRenderer();
    const run = new ReleaseRender(renderer, outDir, content, previousDir, memo);
    await run.start();
    return run.renderPages();
  };
}
