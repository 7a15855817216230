import { requireAdmin } from '../../../../server/auth/guard';
import { getDb } from '../../../../server/db/client';
import { defineHandler, json } from '../../../../server/http';
import { publishStatus } from '../../../../server/publish/jobs';

export const prerender = false;

/** `{ state: idle | queued | building | failed, lastPublishedAt, lastDurationMs, lastError }`. */
export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await publishStatus(await getDb()));
});
