import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, parseId } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { deleteLibraryImage } from '#server/services/images.ts';

export const prerender = false;

/** Deletes an uploaded image and its variants; 409 with where it is used while any content uses it. */
export const DELETE = defineHandler(async ({ params, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  await deleteLibraryImage(await getDb(), parseId(params.id), actor);
  return json({ success: true, message: 'Image deleted' });
});

export const ALL = methodNotAllowed(['DELETE']);
