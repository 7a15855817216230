import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { createInsight } from '#server/services/insights.ts';
import { listInsights } from '#server/content/public-content.ts';
import { insightSchema } from '#shared/schemas/insight.ts';

export const prerender = false;

/** Every insight, drafts included. */
export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await listInsights(await getDb(), { publishedOnly: false }));
});

export const POST = defineHandler(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const input = await readBody(request, insightSchema);
  return json(await createInsight(await getDb(), input, actor, locals.publish), { status: 201 });
});
