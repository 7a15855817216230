import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, parseId, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { setSubmissionStatus } from '#server/services/contact-submissions.ts';
import { submissionStatusSchema } from '#shared/schemas/contact-submission.ts';

export const prerender = false;

export const PATCH = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.id);
  const { status } = await readBody(request, submissionStatusSchema);
  return json(await setSubmissionStatus(await getDb(), id, status, actor));
});

export const ALL = methodNotAllowed(['PATCH']);
