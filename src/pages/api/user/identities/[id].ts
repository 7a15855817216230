import { requireUser } from '#server/auth/guard.ts';
import { loadUser } from '#server/auth/account.ts';
import { unlinkIdentity } from '#server/auth/provider-link.ts';
import { getDb } from '#server/db/client.ts';
import { HttpError, defineHandler, json } from '#server/http.ts';

export const prerender = false;

/** Removes one of the signed-in account's provider links (audited; the account's address is told). */
export const DELETE = defineHandler(async ({ params, locals }) => {
  const signedIn = requireUser(locals);
  const id = params.id ?? '';
  if (!/^[\w-]{1,64}$/.test(id)) throw new HttpError(404, 'Linked sign-in not found');
  const db = await getDb();
  await unlinkIdentity(db, await loadUser(db, signedIn.id), id, locals.clientIp);
  return json({ success: true, message: 'Linked sign-in removed' });
});
