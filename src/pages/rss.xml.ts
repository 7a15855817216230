import type { APIRoute } from 'astro';
import { getRssString } from '@astrojs/rss';
import { loadSiteContent } from '#server/content/site-content.ts';
import { publishedInsights } from '#server/content/routes.ts';
import { categoryLabel, excerptOf } from '#lib/format.ts';
import { absoluteUrl, xmlEscape } from '#shared/seo.ts';
import { companyOf } from '#shared/company.ts';
import { articlePlainText } from '#shared/markdown.ts';

/** How many of the newest insights the feed carries. */
const FEED_ITEMS = 50;

/** RSS 2.0 feed of the latest published insights, newest first (@astrojs/rss writes and escapes the XML). */
export const GET: APIRoute = async ({ site, locals }) => {
  const content = await loadSiteContent(locals);
  const insights = publishedInsights(content).slice(0, FEED_ITEMS);
  const body = await getRssString({
    title: `${companyOf(content).shortName} Insights`,
    description: 'Economics and procurement insights for federal buyers and suppliers.',
    // The channel's link: the insights page, without a trailing slash as every address of the site.
    site: absoluteUrl('/insights', site),
    trailingSlash: false,
    xmlns: { atom: 'http://www.w3.org/2005/Atom' },
    customData: `<atom:link href="${xmlEscape(absoluteUrl('/rss.xml', site))}" rel="self" type="application/rss+xml"/><language>en-us</language>`,
    items: insights.map((i) => {
      const date = i.publicationDate ?? i.createdAt;
      return {
        title: i.title,
        link: absoluteUrl(`/insights/${i.slug}`, site),
        description: excerptOf(i.excerpt, () => articlePlainText(i.content)),
        categories: [categoryLabel(i.category)],
        pubDate: date ? new Date(date) : undefined,
      };
    }),
  });
  return new Response(body, { headers: { 'content-type': 'application/rss+xml; charset=utf-8' } });
};
