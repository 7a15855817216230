import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, parseId, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { setSubmissionSpam } from '#server/services/contact-submissions.ts';
import { spamFlagSchema } from '#shared/schemas/contact-submission.ts';

export const prerender = false;

/** The Spam view's 'Not spam' ({ isSpam: false }), or holding an inquiry as spam ({ isSpam: true }). */
export const PATCH = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.id);
  const { isSpam } = await readBody(request, spamFlagSchema);
  return json(await setSubmissionSpam(await getDb(), id, isSpam, actor));
});

export const ALL = methodNotAllowed(['PATCH']);
