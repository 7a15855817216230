import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, parseId, readJson } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { updateInSection } from '#server/services/content-admin.ts';

export const prerender = false;

/** Partial update of one version of a section (header, header-cta, about, about_mission, intro...). */
export const PATCH = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.id);
  return json(await updateInSection(await getDb(), params.section ?? '', id, await readJson(request), actor, locals.publish));
});
