import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, parseId, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { deleteSavedReply, updateSavedReply } from '#server/services/saved-replies.ts';
import { savedReplyPatchSchema } from '#shared/schemas/saved-reply.ts';

export const prerender = false;

export const PATCH = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.id);
  const patch = await readBody(request, savedReplyPatchSchema);
  return json(await updateSavedReply(await getDb(), id, patch, actor));
});

export const DELETE = defineHandler(async ({ params, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  await deleteSavedReply(await getDb(), parseId(params.id), actor);
  return json({ success: true });
});

export const ALL = methodNotAllowed(['PATCH', 'DELETE']);
