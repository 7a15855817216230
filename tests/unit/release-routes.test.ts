/**
 * The public site's routes have one list, `RELEASE_ROUTES` (src/server/content/routes.ts): what a
 * publish renders into a release, what the sitemap lists and what the server never renders for a
 * visitor. Astro also needs a file per route under src/pages, and a static build prerenders every
 * page file that does not say `export const prerender = false`. These cases hold the two together:
 * a page file added without its route (never rendered into a release, so never served), or a route
 * whose file is gone, fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_STATEMENT_PATH } from '#shared/documents.ts';
import { PUBLIC_PAGES, RELEASE_ROUTES, pageFile } from '#server/content/routes.ts';

const PAGES = 'src/pages';
/** How Astro reads a page's own choice (astro/dist/core/routing/manifest/prerender.js). */
const PRERENDER = /^\s*export\s+const\s+prerender\s*=\s*(true|false);?/m;

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** The route a page file serves: `src/pages/insights/[slug].astro` → `/insights/[slug]`. */
function routeOf(file: string): string {
  const rel = path.relative(PAGES, file).split(path.sep).join('/');
  const route = `/${rel.replace(/\.(astro|ts)$/, '')}`.replace(/\/index$/, '');
  return route || '/';
}

/** Every page file with the route it serves and whether it is rendered into a release. */
const pages = filesUnder(PAGES).map((file) => ({
  file,
  route: routeOf(file),
  released: PRERENDER.exec(fs.readFileSync(file, 'utf8'))?.[1] !== 'false',
}));

describe('[PUBLISH] the release routes and the page files agree', () => {
  it('every page file a static build prerenders is a release route, and every release route has its file', () => {
    const released = pages.filter((p) => p.released).map((p) => p.route);
    expect(new Set(released)).toEqual(new Set(RELEASE_ROUTES));
    expect(released).toHaveLength(RELEASE_ROUTES.size);
  });

  it('the rest are answered on request: the API, the health checks and the preview', () => {
    const onRequest = pages.filter((p) => !p.released).map((p) => p.route);
    expect(onRequest.filter((r) => !r.startsWith('/api/'))).toEqual(
      expect.arrayContaining(['/healthz', '/readyz', '/preview/insights/[slug]']),
    );
    for (const route of onRequest) expect(RELEASE_ROUTES.has(route), route).toBe(false);
  });

  it('the sitemap pages are release routes, each with its own file name', () => {
    for (const page of PUBLIC_PAGES) expect(RELEASE_ROUTES.has(page), page).toBe(true);
    expect(new Set(PUBLIC_PAGES.map(pageFile)).size).toBe(PUBLIC_PAGES.length);
    expect(RELEASE_ROUTES.has(GENERATED_STATEMENT_PATH)).toBe(true);
  });
});
