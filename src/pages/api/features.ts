import { getDb } from '../../server/db/client';
import { requireAdmin } from '../../server/auth/guard';
import { defineHandler, json, readJson } from '../../server/http';
import { actorOf } from '../../server/services/audit';
import { createFeature } from '../../server/services/features';
import { listFeatures } from '../../server/services/public-content';

export const prerender = false;

/** Home feature cards: active ones for visitors, all of them for an administrator. */
export const GET = defineHandler(async ({ locals }) => {
  const activeOnly = locals.user?.role !== 'admin';
  return json(await listFeatures(await getDb(), 'home', { activeOnly }));
});

/** A new home card, or an about card with `section: 'about'` in the body. */
export const POST = defineHandler(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  return json(await createFeature(await getDb(), await readJson(request), actor), { status: 201 });
});
