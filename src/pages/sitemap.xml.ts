import type { APIRoute } from 'astro';
import { loadSiteContent } from '#server/content/site-content.ts';
import { PUBLIC_PAGES, laterInsightListPaths, publishedInsights } from '#server/content/routes.ts';
import { absoluteUrl, xmlEscape } from '#shared/seo.ts';

/** Every public page (with every page of /insights) and every published insight, with absolute URLs from SITE_URL. */
export const GET: APIRoute = async ({ site, locals }) => {
  const content = await loadSiteContent(locals);
  const entries = [
    ...PUBLIC_PAGES.map((path) => ({ path, lastmod: null as string | null })),
    ...laterInsightListPaths(content).map((path) => ({ path, lastmod: null as string | null })),
    ...publishedInsights(content).map((i) => ({ path: `/insights/${i.slug}`, lastmod: i.updatedAt ?? i.publicationDate })),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entries
  .map(
    (e) =>
      `  <url><loc>${xmlEscape(absoluteUrl(e.path, site))}</loc>${e.lastmod ? `<lastmod>${e.lastmod.slice(0, 10)}</lastmod>` : ''}</url>`,
  )
  .join('\n')}
</urlset>
`;
  return new Response(body, { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
