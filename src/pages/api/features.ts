import { getDb } from '#server/db/client.ts';
import { requireAdmin } from '#server/auth/guard.ts';
import { defineHandler, json, readJson } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { createFeature } from '#server/services/features.ts';
import { listFeatures } from '#server/content/public-content.ts';

export const prerender = false;

/** Home feature cards: active ones for visitors, all of them for an administrator. */
export const GET = defineHandler(async ({ locals }) => {
  const activeOnly = locals.user?.role !== 'admin';
  return json(await listFeatures(await getDb(), 'home', { activeOnly }));
});

/** A new home card, or an about or federal card with `section: 'about'` or `'federal'` in the body. */
export const POST = defineHandler(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  return json(await createFeature(await getDb(), await readJson(request), actor, locals.publish), { status: 201 });
});
