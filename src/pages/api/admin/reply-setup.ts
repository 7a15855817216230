import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed } from '#server/http.ts';
import { replySetup } from '#server/services/lead-mail.ts';

export const prerender = false;

/**
 * What a reply is rendered with (the active response template, the signed-in administrator's signature, the
 * capability statement's address): the Respond dialog and the Templates preview render with it
 * through the same code the server sends with, so what they show is what goes out.
 */
export const GET = defineHandler(async ({ locals }) => {
  const user = requireAdmin(locals);
  return json(await replySetup(await getDb(), user.id));
});

export const ALL = methodNotAllowed(['GET']);
