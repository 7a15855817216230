import { requireUser } from '#server/auth/guard.ts';
import { linkedIdentities } from '#server/auth/provider-link.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';

export const prerender = false;

/** The Account tab's linked sign-ins: the provider identities that sign into the signed-in account. */
export const GET = defineHandler(async ({ locals }) => {
  const user = requireUser(locals);
  return json({ identities: await linkedIdentities(await getDb(), user.id) });
});
