import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, readJson } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { createInSection, sectionFromBody } from '#server/services/content-admin.ts';

export const prerender = false;

/** A new content block of the section named in the body (services_hero, home_cta...). */
export const POST = defineHandler(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const body = await readJson(request);
  return json(await createInSection(await getDb(), sectionFromBody(body), body, actor, locals.publish), { status: 201 });
});
