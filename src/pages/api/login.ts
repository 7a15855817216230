import { challengeCookie, isSecureRequest, withCookies } from '#server/auth/cookies.ts';
import { knownDevice } from '#server/auth/device.ts';
import { countAttempt } from '#server/auth/limits.ts';
import { issueSession } from '#server/auth/session.ts';
import { signInWithPassword } from '#server/auth/sign-in.ts';
import { getDb } from '#server/db/client.ts';
import { env } from '#server/env.ts';
import { defineHandler, json, readJson } from '#server/http.ts';
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
  if (outcome.kind === 'challenge') {
    // Which code the sign-in page asks for: the authenticator app's when the account has one (an e-mailed code works too).
    const twoFactorMethod = outcome.user.twoFactorSecret ? 'app' : 'email';
    const body = {
      success: true,
      message: 'Check your email for a 6-digit verification code',
      user: null,
      requires2FA: true,
      twoFactorMethod,
    };
    return withCookies(json(body), [challengeCookie(outcome.challenge, isSecureRequest(request, env().SITE_URL))]);
  }
  const { cookies, user } = await issueSession(db, request, outcome.user.id, locals.clientIp);
  return withCookies(json({ success: true, message: 'Login successful', user, requires2FA: false }), cookies);
});
