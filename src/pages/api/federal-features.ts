import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';
import { listFeatures } from '#server/content/public-content.ts';

export const prerender = false;

/** The federal page's product cards: active ones for visitors, all of them for an administrator (created through /api/features). */
export const GET = defineHandler(async ({ locals }) => {
  const activeOnly = locals.user?.role !== 'admin';
  return json(await listFeatures(await getDb(), 'federal', { activeOnly }));
});
