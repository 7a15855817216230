import { requireAdmin } from '#server/auth/guard.ts';
import { conditionalResponse, jsonEntity } from '#server/conditional.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, methodNotAllowed } from '#server/http.ts';
import { countSubmissions } from '#server/services/contact-submissions.ts';
import { cachedLeadsAnswer } from '#server/services/leads-stamp.ts';

export const prerender = false;

/** The Contacts tab's numbers from one query: inbox per status, spam total, new (pending) inquiries. */
export const GET = defineHandler(async ({ locals, request }) => {
  requireAdmin(locals);
  const db = await getDb();
  return conditionalResponse(request, await cachedLeadsAnswer(db, 'counts', async () => jsonEntity(await countSubmissions(db))));
});

export const ALL = methodNotAllowed(['GET']);
