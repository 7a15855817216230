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
export interface BuiltFiles {
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
 * Beside a release's `client/` (so not served): the site URL and what each page read of the
 * content, as indexes into one list of distinct reads (most pages share the layout's), each with a
 * digest of what it gave. The next publish renders a page again only if one of its reads now gives
 * something else (content/reads.ts); each distinct read is resolved once.
 */
const READS_FILE = 'render-reads.json';
interface RenderReads {
  site: string;
  /** Distinct reads, each as its JSON text. */
  reads: string[];
  /** What each read gave in this release's content (readValue). */
  values: string[];
  /** Per URL path, the indexes of the reads its page made. */
  pages: Record<string, number[]>;
}

async function previousReads(previousDir: string | undefined, site: string): Promise<RenderReads | undefined> {
  if (!previousDir) return undefined;
  const saved = await fs
    .readFile(path.join(previousDir, READS_FILE), 'utf8')
    .then((text) => JSON.parse(text) as RenderReads)
    .catch(() => undefined);
  return saved?.site === site && Array.isArray(saved.reads) && Array.isArray(saved.values) ? saved : undefined;
}

/**
 * Hard links of a page of the previous release and of its compressed copies, if it has them:
 * false when the page could not be linked, 'partly' when a compressed copy it has could not be.
 */
async function keepPage(fromClient: string, toClient: string, file: string, dirs: Dirs): Promise<boolean | 'partly'> {
  const target = path.join(toClient, file);
  await dirs.ensure(path.dirname(target));
  try {
    await fs.link(path.join(fromClient, file), target);
  } catch {
    return false;
  }
  let whole = true;
  for (const ext of ['.br', '.gz']) {
    await fs.link(path.join(fromClient, file + ext), target + ext).catch((err: NodeJS.ErrnoException) => {
      // A small page has no compressed copies: nothing to link.
      if (err.code !== 'ENOENT') whole = false;
    });
  }
  return whole || 'partly';
}

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
    // What each read gives now, worked out once per distinct read.
    const now = new Map<string, string>();
    const valueNow = (key: string) => {
      let v = now.get(key);
      if (v === undefined) now.set(key, (v = readValue(content, JSON.parse(key) as Read)));
      return v;
    };
    const readChanged = (i: number) => valueNow(previous!.reads[i]!) !== previous!.values[i];
    const reads: string[] = [];
    const readIndex = new Map<string, number>();
    const indexOf = (key: string) => {
      let i = readIndex.get(key);
      if (i === undefined) readIndex.set(key, (i = reads.push(key) - 1));
      return i;
    };
    const pages: Record<string, number[]> = {};
    let rendered = 0;
    for (const urlPath of releasePaths(content)) {
      // A stored slug that is not a plain path segment would name another file: refused.
      if (new URL(urlPath, site).pathname !== urlPath) throw new Error(`not a page path: ${JSON.stringify(urlPath)}`);
      const before = previous?.pages[urlPath];
      const rel = pageFile(urlPath).slice(1);
      if (before && !before.some(readChanged)) {
        const linked = await keepPage(path.join(previousDir!, 'client'), client, rel, dirs);
        if (linked) {
          if (linked === true) kept.add(rel);
          files.push(rel);
          pages[urlPath] = before.map((i) => indexOf(previous!.reads[i]!));
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
      rendered++;
    }
    const saved: RenderReads = { site, reads, values: reads.map(valueNow), pages };
    await fs.writeFile(path.join(outDir, READS_FILE), JSON.stringify(saved));
    log.info('pages rendered', { rendered, kept: Object.keys(pages).length - rendered });
    return { files: files.filter((f) => !/\.(br|gz)$/.test(f)), kept };
  };
}
