import { knownDevice } from '#server/auth/device.ts';
import { countAttempt } from '#server/auth/limits.ts';
import { answerSignIn, signInWithPassword } from '#server/auth/sign-in.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, readJson } from '#server/http.ts';
import { loginSchema } from '#shared/schemas/auth.ts';

export const prerender = false;

/**
 * Username or e-mail + password. Without 2FA: a session. With 2FA: `requires2FA`, no session, a
 * pending challenge in an HttpOnly cookie and a code by e-mail (SPEC 2.14, docs/decisions/000), and
 * `twoFactorMethod` ('app' when the account has an authenticator app, else 'email') for the prompt.
 */
export const POST = defineHandler(async ({ request, locals }) => {
  const { username, password } = loginSchema.parse(await readJson(request));
  const db = await getDb();
  const refund = await countAttempt(db, 'login', locals.clientIp);
  const outcome = await signInWithPassword(db, username, password, locals.clientIp, (userId) => knownDevice(request, userId));
  await refund();
  return answerSignIn(db, request, outcome, locals.clientIp);
});
