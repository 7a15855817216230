import { GENERATED_STATEMENT_PATH, usesGeneratedStatement } from '#shared/documents.ts';
import type { SiteContent } from './site-content';

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

/** The client-only shells of the back office and the sign-in pages (they name the business). */
const SHELL_PAGES = ['/admin', '/auth', '/auth/forgot', '/auth/reset'];

/**
 * Release files besides the pages: the not-found pages, the feeds, robots.txt and the capability
 * statement written from the site's data.
 */
const OTHER_PATHS = ['/404', '/insights/404', '/sitemap.xml', '/robots.txt', '/rss.xml', GENERATED_STATEMENT_PATH];

/**
 * Every route (Astro's route pattern) that is rendered into a release and served only from one.
 * A static build (`npm run build:static`) prerenders exactly these; the server bundle renders them
 * on publish, and never for a visitor (src/server/astro-entry.ts). This is the one list of them:
 * Astro's page files under src/pages must match it (each page file that does not say
 * `export const prerender = false` is one of these), which tests/unit/release-routes.test.ts holds.
 */
export const RELEASE_ROUTES: ReadonlySet<string> = new Set([
  ...PUBLIC_PAGES,
  ...SHELL_PAGES,
  ...OTHER_PATHS,
  '/insights/[slug]',
  '/insights/page/[page]',
]);

/** URL path → the file of the release (build.format 'file'). */
export function pageFile(urlPath: string): string {
  if (urlPath === '/') return '/index.html';
  return /\.(xml|txt|pdf)$/.test(urlPath) ? urlPath : `${urlPath}.html`;
}

type Insight = SiteContent['insights'][number];

/** Whether an insight gets a page ('404' is the section's not-found page). */
export const hasPage = (i: Insight): boolean => i.isPublished && i.slug !== '404';

/**
 * Published insights that get a page: the snapshot holds no other (content/public-content.ts
 * `insightsWithPages`), so the list is taken as it is and a page of /insights depends on which
 * articles there are, not on two fields of each.
 */
export function publishedInsights(content: SiteContent): Insight[] {
  return content.insights;
}

/** Cards on each page of /insights (the first page also features the newest article above them). */
export const INSIGHTS_PER_PAGE = 12;

/** How many pages /insights has: one, and one more for every 12 cards past the first 12. */
export function insightListPages(content: SiteContent): number {
  const cards = Math.max(0, publishedInsights(content).length - 1);
  return Math.max(1, Math.ceil(cards / INSIGHTS_PER_PAGE));
}

/** The URL path of a page of /insights. */
export const insightListPath = (page: number): string => (page === 1 ? '/insights' : `/insights/page/${page}`);

/** The pages of /insights after the first. */
export function laterInsightListPaths(content: SiteContent): string[] {
  return Array.from({ length: insightListPages(content) - 1 }, (_, n) => insightListPath(n + 2));
}

/** Every public URL path of a release built from this content (the sitemap's list). */
function publicPaths(content: SiteContent): string[] {
  return [...PUBLIC_PAGES, ...laterInsightListPaths(content), ...publishedInsights(content).map((i) => `/insights/${i.slug}`)];
}

/**
 * Every URL path rendered into a release of this content. The generated capability statement is
 * written only while the site offers it: otherwise its address reaches the server, which sends
 * the visitor on to the statement the site offers (src/pages/capability-statement.pdf.ts).
 */
export function releasePaths(content: SiteContent): string[] {
  const offered = usesGeneratedStatement(content.documents, content.capabilityStatement.useGenerated);
  return [...publicPaths(content), ...SHELL_PAGES, ...OTHER_PATHS.filter((p) => offered || p !== GENERATED_STATEMENT_PATH)];
}

/** Every file a release built from this content must contain; a build missing one is refused. */
export function expectedFiles(content: SiteContent): string[] {
  return releasePaths(content).map(pageFile);
}
