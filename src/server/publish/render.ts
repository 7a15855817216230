import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SiteContent } from '../content/site-content';
import { currentSiteUrl } from '../env';
import { projectRoot } from '../paths';
import type { RenderPage } from '../content/site-content';
import { pageFile, releasePaths } from '../content/routes';

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

/** Makes the static pages of the snapshot file in `outDir/client` (`renderBuilder` renders them with the server bundle). */
export type Builder = (outDir: string, snapshotFile: string) => Promise<void>;

/** The not-found pages answer 404 by design; every other route must answer 200. */
const expectedStatus = (urlPath: string) => (urlPath.endsWith('/404') ? 404 : 200);

/** The Builder that renders with the server bundle (the default of `buildRelease`). */
export function renderBuilder(render?: RenderPage): Builder {
  return async (outDir, snapshotFile) => {
    const renderPage = render ?? (await bundleRenderer());
    const content = JSON.parse(await fs.readFile(snapshotFile, 'utf8')) as SiteContent;
    const client = path.join(outDir, 'client');
    await linkTree(path.join(projectRoot(), 'dist', 'client'), client);
    // Read at each publish, as a static build reads it: canonical links and feeds use it.
    const site = currentSiteUrl();
    for (const urlPath of releasePaths(content)) {
      // A stored slug that is not a plain path segment would name another file: refused.
      if (new URL(urlPath, site).pathname !== urlPath) throw new Error(`not a page path: ${JSON.stringify(urlPath)}`);
      const res = await renderPage(urlPath, site, content);
      if (res.status !== expectedStatus(urlPath)) throw new Error(`rendering ${urlPath} answered ${res.status}`);
      const file = path.join(client, pageFile(urlPath));
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
    }
  };
}
