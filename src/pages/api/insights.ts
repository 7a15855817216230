import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';
import { listInsights } from '#server/content/public-content.ts';

export const prerender = false;

/** Published insights only; drafts are listed by GET /api/admin/insights (docs/decisions/000). */
export const GET = defineHandler(async () => {
  return json(await listInsights(await getDb(), { publishedOnly: true }));
});
