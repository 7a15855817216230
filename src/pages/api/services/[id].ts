import { requireAdmin } from '../../../server/auth/guard';
import { getDb } from '../../../server/db/client';
import { defineHandler, json, parseId, readJson } from '../../../server/http';
import { actorOf } from '../../../server/services/audit';
import { deleteService, updateService } from '../../../server/services/offerings';
import { servicePatchSchema } from '../../../shared/schemas/service';

export const prerender = false;

export const PATCH = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.id);
  const patch = servicePatchSchema.parse(await readJson(request));
  return json(await updateService(await getDb(), id, patch, actor));
});

export const DELETE = defineHandler(async ({ params, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  await deleteService(await getDb(), parseId(params.id), actor);
  return json({ success: true });
});
