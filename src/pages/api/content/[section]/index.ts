import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, parseId, readJson } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { createInSection, listSection, updateInSection } from '#server/services/content-admin.ts';

export const prerender = false;

/** Every version of a section (e.g. services_hero, header-cta), the live one first. */
export const GET = defineHandler(async ({ params, locals }) => {
  requireAdmin(locals);
  return json(await listSection(await getDb(), params.section ?? ''));
});

/** A new version of a section (about, about_mission, header, header-cta, intro...). */
export const POST = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const body = await readJson(request);
  return json(await createInSection(await getDb(), params.section ?? '', body, actor, locals.publish), { status: 201 });
});

/** `PATCH /api/content/{id}`: this path segment is a block id here. */
export const PATCH = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.section);
  return json(await updateInSection(await getDb(), undefined, id, await readJson(request), actor, locals.publish));
});
