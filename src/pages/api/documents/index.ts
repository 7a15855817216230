import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';
import { listDocuments } from '#server/services/public-content.ts';

export const prerender = false;

/** Active documents for visitors; administrators see all (docs/decisions/000). */
export const GET = defineHandler(async ({ locals }) => {
  const activeOnly = locals.user?.role !== 'admin';
  return json(await listDocuments(await getDb(), { activeOnly }));
});
