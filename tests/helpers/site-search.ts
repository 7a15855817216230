import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** What a visitor's search finds: the result's path, title and excerpt, best first. */
export interface Found {
  path: string;
  title: string;
  excerpt: string;
}

interface PagefindModule {
  options(o: { basePath: string }): Promise<void>;
  init(): Promise<void>;
  search(term: string): Promise<{ results: { data(): Promise<{ url: string; excerpt: string; meta: Record<string, string> }> }[] }>;
}

let loads = 0;

/**
 * Searches a running site as a browser does: the site's own `/pagefind/pagefind.js`, fetched
 * afresh (so nothing of an earlier index is kept), runs here on the site's index files, which it
 * fetches over HTTP like the page does (Node has fetch and WebAssembly; without Worker, Pagefind
 * searches on the main thread).
 */
export async function searchSite(base: string, term: string): Promise<Found[]> {
  const res = await fetch(`${base}/pagefind/pagefind.js`);
  if (!res.ok) throw new Error(`GET /pagefind/pagefind.js answered ${res.status}`);
  const file = path.join(os.tmpdir(), `pagefind-${process.pid}-${++loads}.mjs`);
  await fs.writeFile(file, await res.text());
  try {
    const pagefind = (await import(pathToFileURL(file).href)) as PagefindModule;
    await pagefind.options({ basePath: `${base}/pagefind/` });
    await pagefind.init();
    const { results } = await pagefind.search(term);
    const data = await Promise.all(results.map((r) => r.data()));
    return data.map((d) => ({ path: new URL(d.url, base).pathname, title: d.meta.title ?? '', excerpt: d.excerpt }));
  } finally {
    await fs.rm(file, { force: true });
  }
}
