import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed } from '#server/http.ts';
import { listSubmissions } from '#server/services/contact-submissions.ts';

export const prerender = false;

/** Every submission with its responses and their delivery state; the Contacts tab polls it every 30 s. */
export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await listSubmissions(await getDb()));
});

export const ALL = methodNotAllowed(['GET']);
