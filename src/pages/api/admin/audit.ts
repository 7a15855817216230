import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';
import { listAudit } from '#server/services/audit.ts';

export const prerender = false;

/** The latest changes (who, what, when, before/after), newest first; `?limit=` up to 200. */
export const GET = defineHandler(async ({ locals, url }) => {
  requireAdmin(locals);
  const limit = Number(url.searchParams.get('limit') ?? 50) || 50;
  return json(await listAudit(await getDb(), { limit }));
});
