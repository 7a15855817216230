import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, parseId, readJson } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { deleteFeature, updateFeature } from '#server/services/features.ts';

export const prerender = false;

export const PATCH = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  return json(await updateFeature(await getDb(), parseId(params.id), await readJson(request), actor, locals.publish));
});

export const DELETE = defineHandler(async ({ params, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  await deleteFeature(await getDb(), parseId(params.id), actor, locals.publish);
  return json({ success: true });
});
