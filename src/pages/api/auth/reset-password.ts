import { countAttempt } from '#server/auth/limits.ts';
import { INVALID_LINK, resetPassword } from '#server/auth/password-reset.ts';
import { getDb } from '#server/db/client.ts';
import { HttpError, defineHandler, json, readJson } from '#server/http.ts';
import { resetPasswordSchema } from '#shared/schemas/auth.ts';

export const prerender = false;

/** Sets a new password from an e-mailed link; every session of the account ends. */
export const POST = defineHandler(async ({ request, locals }) => {
  const input = resetPasswordSchema.parse(await readJson(request));
  const db = await getDb();
  const refund = await countAttempt(db, 'reset', locals.clientIp);
  try {
    await resetPassword(db, input, locals.clientIp);
  } catch (err) {
    // Only an unknown, used or expired link uses up the allowance; a refused new password does not.
    if (!(err instanceof HttpError && err.message === INVALID_LINK)) await refund();
    throw err;
  }
  await refund();
  return json({ success: true, message: 'Your password has been changed. Sign in with your new password.' });
});
