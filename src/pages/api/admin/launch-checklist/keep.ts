import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { launchChecklist } from '#server/services/launch-checklist.ts';
import { keepStarterItem } from '#server/services/starter-content.ts';
import { keepStarterSchema } from '#shared/schemas/site-launch.ts';

export const prerender = false;

/** `{ key }`: keep a starter item as it is ("Keep as mine"); audited. Answers the checklist. */
export const POST = defineHandler(async ({ locals, request }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const { key } = await readBody(request, keepStarterSchema);
  const db = await getDb();
  await keepStarterItem(db, key, actor);
  return json(await launchChecklist(db));
});
