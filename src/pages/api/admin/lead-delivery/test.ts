import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { sendTestInquiry } from '#server/services/lead-delivery.ts';

export const prerender = false;

/** "Send test inquiry": sends a sample notification now to the current recipients; answers each one's outcome. */
export const POST = defineHandler(async ({ locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  return json(await sendTestInquiry(await getDb(), actor));
});

export const ALL = methodNotAllowed(['POST']);
