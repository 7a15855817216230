import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, parseId, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { updateContactInfo } from '#server/services/contact-info.ts';
import { contactInfoPatchSchema } from '#shared/schemas/contact-info.ts';

export const prerender = false;

export const PATCH = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.id);
  const patch = await readBody(request, contactInfoPatchSchema);
  return json(await updateContactInfo(await getDb(), id, patch, actor, locals.publish));
});

export const ALL = methodNotAllowed(['PATCH']);
