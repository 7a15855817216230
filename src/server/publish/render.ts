import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SiteContent } from '../content/site-content';
import { currentSiteUrl } from '../env';
import { projectRoot } from '../paths';
import type { RenderPage } from '../content/site-content';
import { pageFile, releasePaths } from '../content/routes';
import { readValue, recordReads, type Read } from '../content/reads';
import { log } from '../log';

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
   * The files that are hard links of the files of `previousDir`'s `client/` of the same name, with
   * their compressed copies where that release had them: pages the previous release checked and
   * compressed, and the live process may already hold in memory.
   */
  kept: Set<string>;
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
let lastBuilt: { dir: string; recorded: Recorded } | undefined;

async function previousReads(previousDir: string | undefined, site: string): Promise<Recorded | undefined> {
  if (!previousDir) return undefined;
  const saved =
    lastBuilt?.dir === path.resolve(previousDir)
      ? lastBuilt.recorded
      : await Promise.all([
          fs.readFile(path.join(previousDir, READS_FILE), 'utf8'),
          fs.readFile(path.join(previousDir, VALUES_FILE), 'utf8'),
        ])
          .then(([reads, values]) => ({ ...(JSON.parse(reads) as RenderReads), values: JSON.parse(values) as string[] }))
          .catch(() => undefined);
  return saved?.site === site && Array.isArray(saved.reads) && Array.isArray(saved.values) && saved.values.length === saved.reads.length
    ? saved
    : undefined;
}

/**
 * Hard links of a page of the previous release and of its compressed copies, if it has them:
 * false when the page could not be linked, 'partly' when a compressed copy it has could not be.
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
      // A small page has no compressed copies: nothing to link.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') whole = false;
    }
  }
  return whole || 'partly';
}

/** Pages kept between two turns of the event loop (a few milliseconds of links). */
const KEEP_BATCH = 100;

/**
 * The reads that some page made, numbered again in their order, and each page's list with the
 * new numbers; `undefined` when every read is still made by some page (the numbering stays).
 */
function compact(reads: string[], pages: Record<string, number[]>): { reads: string[]; pages: Record<string, number[]> } | undefined {
  const renumbered = new Int32Array(reads.length).fill(-1);
  for (const list of Object.values(pages)) for (const i of list) renumbered[i] = 0;
  let next = 0;
  for (let i = 0; i < reads.length; i++) if (renumbered[i] === 0) renumbered[i] = next++;
  if (next === reads.length) return undefined;
  return {
    reads: reads.filter((_, i) => renumbered[i]! >= 0),
    pages: Object.fromEntries(Object.entries(pages).map(([page, list]) => [page, list.map((i) => renumbered[i]!)])),
  };
}

const sameList = (a: number[] | undefined, b: number[]) => a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

/** The Builder that renders with the server bundle (the default of `buildRelease`). */
export function renderBuilder(render?: RenderPage): Builder {
  return async (outDir, content, previousDir) => {
    const renderPage = render ?? (await bundleRenderer());
    const client = path.join(outDir, 'client');
    const dirs = new Dirs();
    const files = await linkTree(path.join(projectRoot(), 'dist', 'client'), client, dirs);
    const kept = new Set<string>();
    // Read at each publish, as a static build reads it: canonical links and feeds use it.
    const site = currentSiteUrl();
    const previous = await previousReads(previousDir, site);
    // The reads numbered as in the previous release (a kept page keeps its list as it is), then
    // the new ones; what each gives now is worked out once per distinct read.
    const reads: string[] = previous ? [...previous.reads] : [];
    const readIndex = new Map<string, number>(reads.map((key, i) => [key, i]));
    const indexOf = (key: string) => {
      let i = readIndex.get(key);
      if (i === undefined) readIndex.set(key, (i = reads.push(key) - 1));
      return i;
    };
    const values: string[] = [];
    const valueNow = (i: number) => (values[i] ??= readValue(content, JSON.parse(reads[i]!) as Read));
    const readChanged = (i: number) => valueNow(i) !== previous!.values[i];
    const pages: Record<string, number[]> = {};
    // Whether the reads file says something else than the previous release's.
    let readsChanged = !previous;
    let rendered = 0;
    let keptHere = 0;
    for (const urlPath of releasePaths(content)) {
      // A stored slug that is not a plain path segment would name another file: refused.
      if (new URL(urlPath, site).pathname !== urlPath) throw new Error(`not a page path: ${JSON.stringify(urlPath)}`);
      const before = previous?.pages[urlPath];
      const rel = pageFile(urlPath).slice(1);
      if (before && !before.some(readChanged)) {
        const linked = keepPage(path.join(previousDir!, 'client'), client, rel, dirs);
        if (linked) {
          if (linked === true) kept.add(rel);
          files.push(rel);
          pages[urlPath] = before;
          if (++keptHere % KEEP_BATCH === 0) await new Promise((r) => setImmediate(r));
          continue;
        }
      }
      const recorded = recordReads(content);
      const res = await renderPage(urlPath, site, recorded.content);
      if (res.status !== expectedStatus(urlPath)) throw new Error(`rendering ${urlPath} answered ${res.status}`);
      const file = path.join(client, rel);
      await dirs.ensure(path.dirname(file));
      await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
      files.push(rel);
      pages[urlPath] = recorded.keys().map(indexOf);
      if (!sameList(before, pages[urlPath])) readsChanged = true;
      rendered++;
    }
    if (previous && Object.keys(previous.pages).length !== Object.keys(pages).length) readsChanged = true;
    const smaller = readsChanged ? compact(reads, pages) : undefined;
    const saved: Recorded = { site, reads: smaller?.reads ?? reads, pages: smaller?.pages ?? pages, values: [] };
    saved.values = saved.reads.map((key) => valueNow(readIndex.get(key)!));
    const readsFile = path.join(outDir, READS_FILE);
    const unchanged =
      !readsChanged &&
      (await fs.link(path.join(previousDir!, READS_FILE), readsFile).then(
        () => true,
        () => false,
      ));
    if (!unchanged) await fs.writeFile(readsFile, JSON.stringify({ site, reads: saved.reads, pages: saved.pages } satisfies RenderReads));
    await fs.writeFile(path.join(outDir, VALUES_FILE), JSON.stringify(saved.values));
    lastBuilt = { dir: path.resolve(outDir), recorded: saved };
    log.info('pages rendered', { rendered, kept: Object.keys(pages).length - rendered });
    return { files: files.filter((f) => !/\.(br|gz)$/.test(f)), kept };
  };
}
