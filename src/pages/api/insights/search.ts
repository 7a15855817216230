import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';
import { rememberedSearch, searchInsights } from '#server/services/insight-search.ts';
import { countSearch } from '#server/services/search-limit.ts';
import { categoryLabel, formatLongDate } from '#lib/format.ts';
import { insightSearchSchema } from '#shared/schemas/insight.ts';

export const prerender = false;

/**
 * The insights search box: the published insights matching `q`, best first, as the results list
 * shows them. Only articles whose page is live on this server are returned, so a result never
 * opens a page that is still being published (docs/decisions/013-insights-search.md). One client
 * may search SEARCHES_PER_MINUTE times a minute (src/server/services/search-limit.ts); a search
 * made since the content last changed is answered from memory (`rememberedSearch`). With a deploy
 * hook the host serves the pages: every published article is searched, and nothing is kept (no
 * instance hears of another's saves).
 */
export const GET = defineHandler(async ({ url, locals }) => {
  countSearch(locals.clientIp ?? 'unknown');
  const { q } = insightSearchSchema.parse({ q: url.searchParams.get('q') ?? '' });
  // The engine's live site, which the server gives every route (none under `npm run dev`).
  const release = locals.pagesServedHere?.() === false ? null : locals.live?.release();
  const served = release ? locals.live!.site() : undefined;
  const search = async () =>
    searchInsights(await getDb(), q, { visible: served ? (slug) => served.has(`/insights/${slug}.html`) : undefined });
  // Serving pages: the same words have the same answer until what visitors see changes.
  const { total, results } = release ? await rememberedSearch(q, locals.live!, search) : await search();
  return json({
    total,
    results: results.map((r) => ({
      path: `/insights/${r.slug}`,
      title: r.title,
      date: formatLongDate(r.publicationDate ?? r.createdAt),
      category: categoryLabel(r.category),
      excerpt: r.excerpt,
    })),
  });
});
