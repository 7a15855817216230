import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';
import { publishStatus } from '#server/publish/jobs.ts';

export const prerender = false;

/** `{ state: idle | queued | building | failed, lastPublishedAt, lastDurationMs, lastError }`. */
export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await publishStatus(await getDb()));
});
