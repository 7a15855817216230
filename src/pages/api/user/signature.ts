import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { getSignature, saveSignature } from '#server/services/signature.ts';
import { signatureSchema } from '#shared/schemas/signature.ts';

export const prerender = false;

/** The signed-in administrator's own signature for replies: `{ name, title, phone }`. */
export const GET = defineHandler(async ({ locals }) => {
  const user = requireAdmin(locals);
  return json(await getSignature(await getDb(), user.id));
});

/** Replaces it (their own only); an empty field clears it. */
export const PUT = defineHandler(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const input = await readBody(request, signatureSchema);
  return json(await saveSignature(await getDb(), actor, input));
});

export const ALL = methodNotAllowed(['GET', 'PUT']);
