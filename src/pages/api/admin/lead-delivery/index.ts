import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed } from '#server/http.ts';
import { leadRecipients } from '#server/services/lead-mail.ts';

export const prerender = false;

/** Who new inquiries are e-mailed to and why (`source`: configured, contact, administrators or none). */
export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await leadRecipients(await getDb()), { headers: { 'cache-control': 'no-store' } });
});

export const ALL = methodNotAllowed(['GET']);
