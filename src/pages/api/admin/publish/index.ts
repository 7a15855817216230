import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';
import { publishStatus } from '#server/publish/jobs.ts';
import { queuePublish } from '#server/publish/publisher.ts';

export const prerender = false;

/** Publish now: queues a publish (joining one already waiting) and answers the status. */
export const POST = defineHandler(async ({ locals }) => {
  const user = requireAdmin(locals);
  // The server's engine publishes (publisher.ts `publishNow`); where none was given, the job waits in the database.
  await (locals.publishNow ?? queuePublish)(`manual (${user.username})`);
  return json(await publishStatus(await getDb()), { status: 202 });
});
