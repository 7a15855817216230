import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { createUploadSlot } from '#server/services/documents.ts';

export const prerender = false;

/**
 * SPEC 7: an upload URL for one PDF (`{ uploadURL, expiresAt }`). The file is then PUT to it; that
 * PUT is served by the HTTP layer (src/server/web/document-upload.ts), which streams it to storage.
 */
export const POST = defineHandler(async ({ locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  return json(await createUploadSlot(await getDb(), actor));
});

export const ALL = methodNotAllowed(['POST']);
