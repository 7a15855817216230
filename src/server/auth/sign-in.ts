import type { Db } from '../db/client';
import type { User } from '../db/schema';
import { env } from '../env';
import { HttpError, json } from '../http';
import { challengeCookie, isSecureRequest, withCookies } from './cookies';
import { findUserByLogin } from '../services/users';
import { checkPassword, credentialHash } from './credentials';
import { LOCKED, assertNotLocked, clearFailures, keyLocked, recordFailure, recordKeyFailure, type SignInClient } from './lockout';
import { issueSession } from './session';
import { createChallenge } from './two-factor';

/** One answer for an unknown user and a wrong password, so neither reveals which accounts exist. */
const INVALID_LOGIN = 'Invalid username or password';
export type PasswordOutcome = { kind: 'session'; user: User } | { kind: 'challenge'; user: User; challenge: string };

const unknownKey = (login: string) => `login-unknown:${login.trim().toLowerCase()}`;

/**
 * The password step. A locked client is refused without checking the password; five consecutive
 * failures lock it for 10 minutes (see lockout.ts: a browser with a device cookie for the account
 * is locked on its own, everyone else together, and the owner is e-mailed). Unknown names are
 * locked the same way (counted in `rate_limit`), so the answers match.
 * `deviceFor` answers the request's device-cookie nonce for an account, if it has one.
 */
export async function signInWithPassword(
  db: Db,
  login: string,
  password: string,
  ipAddress: string | undefined,
  deviceFor: (userId: string) => string | undefined = () => undefined,
): Promise<PasswordOutcome> {
  const user = await findUserByLogin(db, login);
  if (!user) {
    if (await keyLocked(db, unknownKey(login))) throw new HttpError(423, LOCKED);
    await checkPassword(null, password);
    await recordKeyFailure(db, unknownKey(login));
    throw new HttpError(401, INVALID_LOGIN);
  }
  const client: SignInClient = { device: deviceFor(user.id) };
  await assertNotLocked(db, user, client);
  if (!(await checkPassword(await credentialHash(db, user.id), password))) {
    await recordFailure(db, user, client);
    throw new HttpError(401, INVALID_LOGIN);
  }
  // With two factors the run of failures ends only when the code is right too.
  if (user.twoFactorEnabled) return { kind: 'challenge', user, challenge: await createChallenge(db, user, ipAddress) };
  await clearFailures(db, user, client);
  return { kind: 'session', user };
}

/**
 * The answer of a sign-in whose password was right (POST /api/login, the provider link step):
 * a session, or with two factors the code step (its challenge in an HttpOnly cookie and
 * `twoFactorMethod`, 'app' when the account has an authenticator app, else 'email').
 * `cookies` go along either way; `codeStep` adds to the code step's answer.
 */
export async function answerSignIn(
  db: Db,
  request: Request,
  outcome: PasswordOutcome,
  ipAddress: string | undefined,
  cookies: string[] = [],
  codeStep: Record<string, string> = {},
): Promise<Response> {
  if (outcome.kind === 'challenge') {
    const twoFactorMethod = outcome.user.twoFactorSecret ? 'app' : 'email';
    const message = 'Check your email for a 6-digit verification code';
    const body = { success: true, message, user: null, requires2FA: true, twoFactorMethod, ...codeStep };
    return withCookies(json(body), [...cookies, challengeCookie(outcome.challenge, isSecureRequest(request, env().SITE_URL))]);
  }
  const session = await issueSession(db, request, outcome.user.id, ipAddress);
  return withCookies(json({ success: true, message: 'Login successful', user: session.user, requires2FA: false }), [
    ...cookies,
    ...session.cookies,
  ]);
}
