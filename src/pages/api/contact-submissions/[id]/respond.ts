import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, parseId, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { respondToSubmission } from '#server/services/contact-submissions.ts';
import { contactResponseSchema } from '#shared/schemas/contact-submission.ts';

export const prerender = false;

/** Stores the reply and queues its e-mail to the visitor; answers the submission with its responses. */
export const POST = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.id);
  const { message } = await readBody(request, contactResponseSchema);
  return json(await respondToSubmission(await getDb(), id, message, actor), { status: 201 });
});

export const ALL = methodNotAllowed(['POST']);
