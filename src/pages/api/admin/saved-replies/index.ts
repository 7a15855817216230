import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { createSavedReply, listSavedReplies } from '#server/services/saved-replies.ts';
import { savedReplySchema } from '#shared/schemas/saved-reply.ts';

export const prerender = false;

export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await listSavedReplies(await getDb()));
});

export const POST = defineHandler(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const input = await readBody(request, savedReplySchema);
  return json(await createSavedReply(await getDb(), input, actor), { status: 201 });
});

export const ALL = methodNotAllowed(['GET', 'POST']);
