import { getDb } from '../../../server/db/client';
import { defineHandler, json } from '../../../server/http';
import { listDocuments } from '../../../server/services/public-content';

export const prerender = false;

/** Active documents for visitors; administrators see all (DECISIONS.md). */
export const GET = defineHandler(async ({ locals }) => {
  const activeOnly = locals.user?.role !== 'admin';
  return json(await listDocuments(await getDb(), { activeOnly }));
});
