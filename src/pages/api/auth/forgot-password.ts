import { requestPasswordReset } from '#server/auth/password-reset.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, readJson } from '#server/http.ts';
import { forgotPasswordSchema } from '#shared/schemas/auth.ts';

export const prerender = false;

/** The same answer whether or not an account uses the address (no way to learn who has one). */
const FORGOT_PASSWORD_ANSWER =
  'If an account uses this e-mail address, a link to choose a new password is on its way. It works once, for 30 minutes.';

/** 'Forgot password?': e-mails a single-use reset link to the account with this address. */
export const POST = defineHandler(async ({ request, locals }) => {
  const { email } = forgotPasswordSchema.parse(await readJson(request));
  await requestPasswordReset(await getDb(), email, locals.clientIp);
  return json({ success: true, message: FORGOT_PASSWORD_ANSWER });
});
