import { getDb } from '../../server/db/client';
import { defineHandler, json } from '../../server/http';
import { listServices } from '../../server/services/public-content';

export const prerender = false;

/** Services by displayOrder: active ones for visitors, all of them for an administrator. */
export const GET = defineHandler(async ({ locals }) => {
  const activeOnly = locals.user?.role !== 'admin';
  return json(await listServices(await getDb(), { activeOnly }));
});
