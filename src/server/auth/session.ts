import { randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, users, type User } from '../db/schema';
import type { SessionInfo, SessionUser } from './types';

export const SESSION_COOKIE = 'sid';
/** Admin sessions end after 30 minutes idle and 12 hours at most. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;

export function toSessionUser(u: User): SessionUser {
  return {
    id: u.id,
    username: u.displayUsername ?? u.username ?? u.email,
    email: u.email,
    name: u.name,
    role: u.role,
    twoFactorEnabled: u.twoFactorEnabled,
    lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
    updatedAt: u.updatedAt.toISOString(),
    createdAt: u.createdAt.toISOString(),
  };
}

export async function createSession(
  db: Db,
  userId: string,
  meta: { ipAddress?: string; userAgent?: string },
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_MAX_MS);
  await db.insert(sessions).values({
    id: randomBytes(16).toString('hex'),
    token,
    userId,
    expiresAt,
    lastActiveAt: now,
    ipAddress: meta.ipAddress,
    userAgent: meta.userAgent?.slice(0, 500),
  });
  return { token, expiresAt };
}

/** The live session for a cookie token: not expired, not idle; touching it extends the idle window. */
export async function resolveSession(
  db: Db,
  token: string | undefined,
  now = new Date(),
): Promise<{ user: SessionUser; session: SessionInfo } | null> {
  if (!token || token.length > 200) return null;
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.token, token), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  if (now.getTime() - row.session.lastActiveAt.getTime() > SESSION_IDLE_MS) {
    await db.delete(sessions).where(eq(sessions.id, row.session.id));
    return null;
  }
  // Touch at most once a minute to keep reads cheap.
  if (now.getTime() - row.session.lastActiveAt.getTime() > 60_000) {
    await db.update(sessions).set({ lastActiveAt: now }).where(eq(sessions.id, row.session.id));
  }
  return {
    user: toSessionUser(row.user),
    session: { id: row.session.id, expiresAt: row.session.expiresAt.toISOString() },
  };
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.token, token));
}
