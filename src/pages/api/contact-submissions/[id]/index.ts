import { requireAdmin } from '#server/auth/guard.ts';
import { conditionalJson } from '#server/conditional.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, methodNotAllowed, parseId } from '#server/http.ts';
import { getSubmission } from '#server/services/contact-submissions.ts';

export const prerender = false;

/** One submission with its responses (the Respond dialog's own source, wherever its row is in the list). */
export const GET = defineHandler(async ({ params, locals, request }) => {
  requireAdmin(locals);
  const id = parseId(params.id);
  return conditionalJson(request, await getSubmission(await getDb(), id));
});

export const ALL = methodNotAllowed(['GET']);
