import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import { storedAddress } from '../client-ip';
import { env } from '../env';
import { getAuth, sessionCookieName } from './better-auth';
import { now } from '../clock';
import { challengeCookie, hintCookie, isSecureRequest, serializeCookie } from './cookies';
import { SESSION_MAX_MS } from './better-auth';
import { holdLink, linkCookie, runProviderCallback } from './provider-link';
import { createChallenge } from './two-factor';

/**
 * Runs better-auth's OAuth callback, then applies our rules to the session it made: a locked
 * account gets none; an account with 2FA trades it for a pending challenge and the code step on
 * /auth (a provider sign-in never skips the second factor); otherwise the header hint is set.
 * A new provider identity for an existing account makes no session: the sign-in page asks for
 * that account's password first (./provider-link.ts).
 */
export async function finishProviderSignIn(db: Db, request: Request, ipAddress?: string): Promise<Response> {
  const secure = isSecureRequest(request, env().SITE_URL);
  const auth = getAuth(db, secure);
  const { result: res, held } = await runProviderCallback(() => auth.handler(request));
  if (held) {
    const raw = await holdLink(db, held);
    const headers = new Headers({
      location: `/auth?step=link&provider=${encodeURIComponent(held.providerId)}`,
      'cache-control': 'no-store',
    });
    // better-auth's own cookies (its state cookie cleared) go along; it set no session.
    for (const c of res.headers.getSetCookie()) headers.append('set-cookie', c);
    headers.append('set-cookie', linkCookie(raw, secure));
    return new Response(null, { status: 302, headers });
  }
  const name = await sessionCookieName(auth);
  const setCookies = res.headers.getSetCookie();
  const sessionSet = setCookies.find((c) => c.startsWith(`${name}=`) && !/max-age=0/i.test(c));
  if (!sessionSet) return res;

  const signed = decodeURIComponent(sessionSet.slice(name.length + 1).split(';')[0] ?? '');
  const token = signed.slice(0, signed.lastIndexOf('.'));
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.token, token))
    .limit(1);
  if (!row) return res;

  const others = setCookies.filter((c) => !c.startsWith(`${name}=`));
  const redirect = (location: string, cookies: string[]) => {
    const headers = new Headers({ location, 'cache-control': 'no-store' });
    for (const c of [...others, ...cookies]) headers.append('set-cookie', c);
    return new Response(null, { status: 302, headers });
  };
  const clearSession = serializeCookie(name, '', { maxAgeSeconds: 0, httpOnly: true, secure });
  const { user } = row;

  if (user.lockedUntil && user.lockedUntil > now()) {
    await db.delete(sessions).where(eq(sessions.id, row.session.id));
    return redirect('/auth?error=locked', [clearSession]);
  }
  if (user.twoFactorEnabled) {
    await db.delete(sessions).where(eq(sessions.id, row.session.id));
    const challenge = await createChallenge(db, user, ipAddress);
    const login = encodeURIComponent(user.username ?? user.email);
    const method = user.twoFactorSecret ? 'app' : 'email';
    return redirect(`/auth?step=code&username=${login}&method=${method}`, [clearSession, challengeCookie(challenge, secure)]);
  }
  await db
    .update(sessions)
    .set({ lastActiveAt: now(), ipAddress: storedAddress(ipAddress) })
    .where(eq(sessions.id, row.session.id));
  await db.update(users).set({ lastLoginAt: now(), failedLoginCount: 0 }).where(eq(users.id, user.id));
  const headers = new Headers(res.headers);
  headers.append('set-cookie', hintCookie(true, secure, SESSION_MAX_MS / 1000));
  return new Response(res.body, { status: res.status, headers });
}
