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

/** Hard links (one file system: both are inside the project) of every file of `from` under `to`. */
async function linkTree(from: string, to: string): Promise<void> {
  for await (const rel of filesUnder(from)) {
    const target = path.join(to, rel);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.link(path.join(from, rel), target).catch(() => fs.copyFile(path.join(from, rel), target));
  }
}

/**
 * Makes the static pages of the snapshot file in `outDir/client` (`renderBuilder` renders them with
 * the server bundle). `previousDir`, the live release's directory when it was built by the same
 * code, lets it keep the pages a change does not touch.
 */
export type Builder = (outDir: string, snapshotFile: string, previousDir?: string) => Promise<void>;

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

/** Hard links of a page of the previous release and of its compressed copies, if it has them. */
async function keepPage(fromClient: string, toClient: string, file: string): Promise<boolean> {
  const target = path.join(toClient, file);
  await fs.mkdir(path.dirname(target), { recursive: true });
  try {
    await fs.link(path.join(fromClient, file), target);
  } catch {
    return false;
  }
  for (const ext of ['.br', '.gz']) await fs.link(path.join(fromClient, file + ext), target + ext).catch(() => undefined);
  return true;
}

/** The Builder that renders with the server bundle (the default of `buildRelease`). */
export function renderBuilder(render?: RenderPage): Builder {
  return async (outDir, snapshotFile, previousDir) => {
    const renderPage = render ?? (await bundleRenderer());
    const content = JSON.parse(await fs.readFile(snapshotFile, 'utf8')) as SiteContent;
    const client = path.join(outDir, 'client');
    await linkTree(path.join(projectRoot(), 'dist', 'client'), client);
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
      if (before && !before.some(readChanged) && (await keepPage(path.join(previousDir!, 'client'), client, pageFile(urlPath)))) {
        pages[urlPath] = before.map((i) => indexOf(previous!.reads[i]!));
        continue;
      }
      const recorded = recordReads(content);
      const res = await renderPage(urlPath, site, recorded.content);
      if (res.status !== expectedStatus(urlPath)) throw new Error(`rendering ${urlPath} answered ${res.status}`);
      const file = path.join(client, pageFile(urlPath));
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
      pages[urlPath] = recorded.keys().map(indexOf);
      rendered++;
    }
    const saved: RenderReads = { site, reads, values: reads.map(valueNow), pages };
    await fs.writeFile(path.join(outDir, READS_FILE), JSON.stringify(saved));
    log.info('pages rendered', { rendered, kept: Object.keys(pages).length - rendered });
  };
}
