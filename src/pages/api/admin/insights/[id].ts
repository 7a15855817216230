import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, parseId, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { deleteInsight, updateInsight } from '#server/services/insights.ts';
import { insightPatchSchema } from '#shared/schemas/insight.ts';

export const prerender = false;

/** Any insight fields, or only isPublished (+ publicationDate) from the table's switch. */
export const PATCH = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.id);
  const patch = await readBody(request, insightPatchSchema);
  return json(await updateInsight(await getDb(), id, patch, actor, locals.publish));
});

export const DELETE = defineHandler(async ({ params, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  await deleteInsight(await getDb(), parseId(params.id), actor, locals.publish);
  return json({ success: true });
});
