import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, parseId, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { deletePastPerformance, updatePastPerformance } from '#server/services/past-performance.ts';
import { pastPerformancePatchSchema } from '#shared/schemas/past-performance.ts';

export const prerender = false;

export const PATCH = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.id);
  const patch = await readBody(request, pastPerformancePatchSchema);
  return json(await updatePastPerformance(await getDb(), id, patch, actor, locals.publish));
});

export const DELETE = defineHandler(async ({ params, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  await deletePastPerformance(await getDb(), parseId(params.id), actor, locals.publish);
  return json({ success: true });
});

export const ALL = methodNotAllowed(['PATCH', 'DELETE']);
