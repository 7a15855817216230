import { getDb } from '../../server/db/client';
import { defineHandler, json } from '../../server/http';
import { listFeatures } from '../../server/services/public-content';

export const prerender = false;

/** Home feature cards: active ones for visitors, all of them for an administrator. */
export const GET = defineHandler(async ({ locals }) => {
  const activeOnly = locals.user?.role !== 'admin';
  return json(await listFeatures(await getDb(), 'home', { activeOnly }));
});
