import type { APIRoute } from 'astro';
import { absoluteUrl } from '#shared/seo.ts';

/** Everything public may be crawled; the back office, sign-in and API may not. */
export const GET: APIRoute = ({ site }) =>
  new Response(
    `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /auth\nDisallow: /api/\n\nSitemap: ${absoluteUrl('/sitemap.xml', site)}\n`,
    {
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    },
  );
