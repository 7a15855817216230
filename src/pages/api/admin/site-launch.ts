import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { getSiteLaunch } from '#server/content/public-content.ts';
import { setSiteLaunch } from '#server/services/site-launch.ts';
import { siteLaunchSchema } from '#shared/schemas/site-launch.ts';

export const prerender = false;

/** Whether the site is launched (search engines may index it). */
export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await getSiteLaunch(await getDb()));
});

/** `{ launched }`: launch the site, or hide it from search engines again; audited, and publishes every page. */
export const PUT = defineHandler(async ({ locals, request }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const setting = await readBody(request, siteLaunchSchema);
  return json(await setSiteLaunch(await getDb(), setting, actor, locals.publish));
});
