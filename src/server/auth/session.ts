import { and, eq, ne } from 'drizzle-orm';
import type { UserRole } from '#shared/constants.ts';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import { SESSION_MAX_MS, getAuth, sessionCookieName, sessionIdleMs } from './better-auth';
import { now as clockNow } from '../clock';
import { hintCookie, isSecureRequest, readCookie } from './cookies';
import { storedAddress } from '../client-ip';
import { env } from '../env';
import type { SessionInfo, SessionUser } from '#shared/session.ts';
import { deviceCookie } from './device';
import { HttpError } from '../http';

/** The better-auth instance whose cookies this request carries (https → `__Host-` cookies). */
export function authFor(db: Db, request: Request) {
  return getAuth(db, isSecureRequest(request, env().SITE_URL));
}

interface UserLike {
  id: string;
  name: string;
  email: string;
  username?: string | null;
  displayUsername?: string | null;
  role?: string | null;
  twoFactorEnabled?: boolean | null;
  lastLoginAt?: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

const iso = (d: Date | string) => (typeof d === 'string' ? new Date(d) : d).toISOString();

/** The user as the API shows it: never the password hash or the 2FA secret. */
function toSessionUser(u: UserLike): SessionUser {
  return {
    id: u.id,
    username: u.displayUsername ?? u.username ?? u.email,
    email: u.email,
    name: u.name,
    role: (u.role ?? 'user') as UserRole,
    twoFactorEnabled: Boolean(u.twoFactorEnabled),
    lastLoginAt: u.lastLoginAt ? iso(u.lastLoginAt) : null,
    updatedAt: iso(u.updatedAt),
    createdAt: iso(u.createdAt),
  };
}

export type SessionLookup =
  { state: 'none' } | { state: 'invalid'; cookieName: string } | { state: 'valid'; user: SessionUser; session: SessionInfo; token: string };

/**
 * The live session of a request: better-auth checks the signed cookie and finds the row; we add
 * the 12-hour and 30-minute-idle limits on our clock. Use refreshes the idle window (written at
 * most once a minute to keep reads cheap, and often enough that a short idle setting never looks
 * closer than 90 % of itself while the session is in use). `touch: false` (a background poll)
 * reads without counting as use, or an open back office would never be idle.
 */
export async function readSession(db: Db, request: Request, opts: { touch?: boolean } = {}): Promise<SessionLookup> {
  const auth = authFor(db, request);
  const cookieName = await sessionCookieName(auth);
  if (!readCookie(request, cookieName)) return { state: 'none' };
  const found = await auth.api.getSession({ headers: request.headers, query: { disableCookieCache: true, disableRefresh: true } });
  if (!found) return { state: 'invalid', cookieName };
  const now = clockNow();
  const { session, user } = found;
  const lastActive = new Date((session as { lastActiveAt?: Date | null }).lastActiveAt ?? session.createdAt);
  const idleMs = sessionIdleMs();
  const expired = now >= session.expiresAt || now.getTime() - new Date(session.createdAt).getTime() >= SESSION_MAX_MS;
  if (expired || now.getTime() - lastActive.getTime() > idleMs) {
    await db.delete(sessions).where(eq(sessions.id, session.id));
    return { state: 'invalid', cookieName };
  }
  let activeAt = lastActive;
  if (opts.touch !== false && now.getTime() - lastActive.getTime() > Math.min(60_000, idleMs / 10)) {
    await db.update(sessions).set({ lastActiveAt: now }).where(eq(sessions.id, session.id));
    activeAt = now;
  }
  return {
    state: 'valid',
    user: toSessionUser(user),
    session: { id: session.id, expiresAt: session.expiresAt.toISOString(), idleExpiresAt: idleEnd(activeAt, session.expiresAt) },
    token: session.token,
  };
}

/** The idle sign-out time of a session last used at `activeAt` (never past its 12-hour end). */
function idleEnd(activeAt: Date, expiresAt: Date): string {
  return new Date(Math.min(activeAt.getTime() + sessionIdleMs(), expiresAt.getTime())).toISOString();
}

/** Whole seconds until the session's idle sign-out, on our clock. */
export function idleSecondsLeft(session: SessionInfo): number {
  return Math.max(0, Math.floor((Date.parse(session.idleExpiresAt) - clockNow().getTime()) / 1000));
}

/** 'Stay signed in': the idle window starts again now. */
export async function extendSession(db: Db, session: SessionInfo): Promise<SessionInfo> {
  const at = clockNow();
  const [row] = await db.update(sessions).set({ lastActiveAt: at }).where(eq(sessions.id, session.id)).returning();
  if (!row) throw new HttpError(401, 'Authentication required');
  return { ...session, idleExpiresAt: idleEnd(at, row.expiresAt) };
}

/**
 * Starts a session after every check has passed: the signed session cookie plus the header's
 * hint cookie, as Set-Cookie values. Records the sign-in time.
 */
export async function issueSession(
  db: Db,
  request: Request,
  userId: string,
  ipAddress?: string,
): Promise<{ cookies: string[]; user: SessionUser }> {
  const [updated] = await db.update(users).set({ lastLoginAt: clockNow() }).where(eq(users.id, userId)).returning();
  const secure = isSecureRequest(request, env().SITE_URL);
  const { headers, response } = await getAuth(db, secure).api.issueSession({
    body: { userId, ipAddress: storedAddress(ipAddress) ?? undefined },
    headers: request.headers,
    returnHeaders: true,
  });
  // Times on our clock (better-auth uses the wall clock), so the idle and 12-hour limits agree.
  const at = clockNow();
  await db
    .update(sessions)
    .set({ createdAt: at, lastActiveAt: at, expiresAt: new Date(at.getTime() + SESSION_MAX_MS) })
    .where(eq(sessions.id, response.sessionId));
  // This browser is now known for the account: its own failures no longer lock anyone else out.
  const cookies = [...headers.getSetCookie(), hintCookie(true, secure, SESSION_MAX_MS / 1000), deviceCookie(userId, secure)];
  return { cookies, user: toSessionUser(updated!) };
}

/** Ends the request's session on the server; returns the Set-Cookie values that clear both cookies. */
export async function endSession(db: Db, request: Request): Promise<string[]> {
  const secure = isSecureRequest(request, env().SITE_URL);
  const auth = getAuth(db, secure);
  const cleared = [hintCookie(false, secure, 0)];
  if (!readCookie(request, await sessionCookieName(auth))) return cleared;
  const { headers } = await auth.api.signOut({ headers: request.headers, returnHeaders: true }).catch(async () => ({
    headers: new Headers(),
  }));
  return [...headers.getSetCookie(), ...cleared];
}

/** A password change ends every other session of the user (ASVS V3.3.3). */
export async function endOtherSessions(db: Db, userId: string, keepSessionId: string | undefined): Promise<void> {
  await db
    .delete(sessions)
    .where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId));
}
