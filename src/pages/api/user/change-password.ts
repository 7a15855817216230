import { WRONG_CURRENT_PASSWORD, changePassword } from '#server/auth/account.ts';
import { requireUser } from '#server/auth/guard.ts';
import { countAttempt } from '#server/auth/limits.ts';
import { getDb } from '#server/db/client.ts';
import { HttpError, defineHandler, json, readBody } from '#server/http.ts';
import { changePasswordSchema } from '#shared/schemas/auth.ts';

export const prerender = false;

/** Needs the current password; ends every other session of the user. */
export const POST = defineHandler(async ({ request, locals }) => {
  const user = requireUser(locals);
  const input = await readBody(request, changePasswordSchema);
  const db = await getDb();
  const refund = await countAttempt(db, 'password', locals.clientIp);
  try {
    await changePassword(db, user.id, locals.session?.id, input);
  } catch (err) {
    // Only a wrong current password uses up the allowance; a refused new one does not.
    if (!(err instanceof HttpError && err.message === WRONG_CURRENT_PASSWORD)) await refund();
    throw err;
  }
  await refund();
  return json({ success: true, message: 'Password changed' });
});
