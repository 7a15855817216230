import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';
import { launchChecklist } from '#server/services/launch-checklist.ts';

export const prerender = false;

/** "Before you launch": what the public profile lacks and the starter content still live, with the count done. */
export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await launchChecklist(await getDb()));
});
