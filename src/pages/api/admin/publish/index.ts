import { requireAdmin } from '../../../../server/auth/guard';
import { getDb } from '../../../../server/db/client';
import { defineHandler, json } from '../../../../server/http';
import { publishStatus } from '../../../../server/publish/jobs';
import { publishNow } from '../../../../server/publish/publisher';

export const prerender = false;

/** Publish now: queues a publish (joining one already waiting) and answers the status. */
export const POST = defineHandler(async ({ locals }) => {
  const user = requireAdmin(locals);
  await publishNow(`manual (${user.username})`);
  return json(await publishStatus(await getDb()), { status: 202 });
});
