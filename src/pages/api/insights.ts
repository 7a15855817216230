import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';
import { listPublishedInsightSummaries } from '#server/content/public-content.ts';

export const prerender = false;

/** Published insights only, without their text; drafts are listed by GET /api/admin/insights (docs/decisions/000). */
export const GET = defineHandler(async () => {
  return json(await listPublishedInsightSummaries(await getDb()));
});
