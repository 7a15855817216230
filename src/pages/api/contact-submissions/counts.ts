import { requireAdmin } from '#server/auth/guard.ts';
import { conditionalJson } from '#server/conditional.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, methodNotAllowed } from '#server/http.ts';
import { countSubmissions } from '#server/services/contact-submissions.ts';

export const prerender = false;

/** The Contacts tab's numbers from one query: inbox per status, spam total, new (pending) inquiries. */
export const GET = defineHandler(async ({ locals, request }) => {
  requireAdmin(locals);
  return conditionalJson(request, await countSubmissions(await getDb()));
});

export const ALL = methodNotAllowed(['GET']);
