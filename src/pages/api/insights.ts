import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';
import { listInsights } from '#server/services/public-content.ts';

export const prerender = false;

/** Published insights only; drafts are listed by GET /api/admin/insights (DECISIONS.md). */
export const GET = defineHandler(async () => {
  return json(await listInsights(await getDb(), { publishedOnly: true }));
});
