import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, parseId, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { deleteService, updateService } from '#server/services/offerings.ts';
import { servicePatchSchema } from '#shared/schemas/service.ts';

export const prerender = false;

export const PATCH = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.id);
  const patch = await readBody(request, servicePatchSchema);
  return json(await updateService(await getDb(), id, patch, actor, locals.publish));
});

export const DELETE = defineHandler(async ({ params, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  await deleteService(await getDb(), parseId(params.id), actor, locals.publish);
  return json({ success: true });
});
