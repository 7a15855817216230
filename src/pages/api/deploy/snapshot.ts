import { createHash, timingSafeEqual } from 'node:crypto';
import { getDb } from '#server/db/client.ts';
import { currentSiteUrl, env } from '#server/env.ts';
import { defineHandler, HttpError, json } from '#server/http.ts';
import { snapshotContent } from '#server/content/site-content.ts';

export const prerender = false;

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `header` is `Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | null, token: string): boolean {
  const given = /^Bearer (\S+)$/.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/**
 * The published content, for a static host's build (`npm run build:static` with CONTENT_SNAPSHOT
 * set to this address): the same JSON `npm run content:export` writes, with the site address it is
 * published under in `X-Site-Url`. Read-only; only with DEPLOY_TOKEN as a bearer token (without
 * DEPLOY_TOKEN configured, nobody); never kept by a cache.
 */
export const GET = defineHandler(async ({ request }) => {
  const token = env().DEPLOY_TOKEN;
  if (!token || !bearerMatches(request.headers.get('authorization'), token))
    throw new HttpError(401, 'A deploy token is required', { 'www-authenticate': 'Bearer' });
  return json(await snapshotContent(await getDb()), {
    headers: { 'cache-control': 'no-store, private', 'x-site-url': currentSiteUrl() },
  });
});
