import type { APIRoute } from 'astro';
import { loadSiteContent } from '#server/content/site-content.ts';
import { absoluteUrl } from '#shared/seo.ts';

/**
 * Once the site is launched, everything public may be crawled and the sitemap is named; the back
 * office, sign-in and API may not. Until then no crawler is welcome and no sitemap is advertised.
 */
export const GET: APIRoute = async ({ site, locals }) => {
  const content = await loadSiteContent(locals);
  const text =
    content.launch?.launched === false
      ? 'User-agent: *\nDisallow: /\n'
      : `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /auth\nDisallow: /api/\n\nSitemap: ${absoluteUrl('/sitemap.xml', site)}\n`;
  return new Response(text, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
