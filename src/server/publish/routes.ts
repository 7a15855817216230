import type { SiteContent } from '../content/site-content';

/** The public static pages (URL path), in sitemap order. */
export const PUBLIC_PAGES = [
  '/',
  '/about',
  '/services',
  '/services/consulting',
  '/services/federal',
  '/services/partners',
  '/capabilities',
  '/insights',
  '/contact',
  '/privacy',
] as const;

/** The prerendered pages that do not depend on content: a publish build takes them from dist/client (content-build.ts). */
export const SHELL_PAGES = ['/admin.html', '/auth.html'];

/** Static files every release must contain besides the pages (the shells: content-build.ts). */
const STATIC_FILES = ['/404.html', '/insights/404.html', '/sitemap.xml', '/robots.txt', '/rss.xml', ...SHELL_PAGES];

/** URL path → the file `astro build` writes for it (build.format 'file'). */
function pageFile(urlPath: string): string {
  return urlPath === '/' ? '/index.html' : `${urlPath}.html`;
}

/** Published insights that get a page ('404' is the section's not-found page). */
export function publishedInsights(content: SiteContent): SiteContent['insights'] {
  return content.insights.filter((i) => i.isPublished && i.slug !== '404');
}

/** Every public URL path of a release built from this content (the sitemap's list). */
function publicPaths(content: SiteContent): string[] {
  return [...PUBLIC_PAGES, ...publishedInsights(content).map((i) => `/insights/${i.slug}`)];
}

/** Every file a release built from this content must contain; a build missing one is refused. */
export function expectedFiles(content: SiteContent): string[] {
  return [...publicPaths(content).map(pageFile), ...STATIC_FILES];
}
