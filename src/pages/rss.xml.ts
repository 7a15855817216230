import type { APIRoute } from 'astro';
import { loadSiteContent } from '#server/content/site-content.ts';
import { publishedInsights } from '#server/content/routes.ts';
import { categoryLabel, excerptOf } from '#lib/format.ts';
import { absoluteUrl, xmlEscape } from '#shared/seo.ts';
import { companyOf } from '#shared/company.ts';
import { articlePlainText } from '#shared/markdown.ts';

/** How many of the newest insights the feed carries. */
const FEED_ITEMS = 50;

/** RSS 2.0 feed of the latest published insights, newest first. */
export const GET: APIRoute = async ({ site, locals }) => {
  const content = await loadSiteContent(locals);
  const insights = publishedInsights(content).slice(0, FEED_ITEMS);
  const items = insights.map((i) => {
    const url = absoluteUrl(`/insights/${i.slug}`, site);
    const date = i.publicationDate ?? i.createdAt;
    return `    <item>
      <title>${xmlEscape(i.title)}</title>
      <link>${xmlEscape(url)}</link>
      <guid isPermaLink="true">${xmlEscape(url)}</guid>
      <description>${xmlEscape(excerptOf(i.excerpt, () => articlePlainText(i.content)))}</description>
      <category>${xmlEscape(categoryLabel(i.category))}</category>
      ${date ? `<pubDate>${new Date(date).toUTCString()}</pubDate>` : ''}
    </item>`;
  });
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${xmlEscape(`${companyOf(content).shortName} Insights`)}</title>
    <link>${xmlEscape(absoluteUrl('/insights', site))}</link>
    <atom:link href="${xmlEscape(absoluteUrl('/rss.xml', site))}" rel="self" type="application/rss+xml" />
    <description>${xmlEscape('Economics and procurement insights for federal buyers and suppliers.')}</description>
    <language>en-us</language>
${items.join('\n')}
  </channel>
</rss>
`;
  return new Response(body, { headers: { 'content-type': 'application/rss+xml; charset=utf-8' } });
};
