import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';
import { getActiveContactInfo } from '#server/content/public-content.ts';

export const prerender = false;

/** The active business contact record, or null. Live (not baked into pages) per docs/decisions/000. */
export const GET = defineHandler(async () => {
  return json(await getActiveContactInfo(await getDb()), {
    headers: { 'cache-control': 'public, max-age=60, stale-while-revalidate=300' },
  });
});
