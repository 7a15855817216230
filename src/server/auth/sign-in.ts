import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits, users, type User } from '../db/schema';
import { HttpError } from '../http';
import { findUserByLogin } from '../services/users';
import { now } from './clock';
import { checkPassword, credentialHash } from './credentials';
import { LOCKOUT_MS, LOCKOUT_THRESHOLD } from './limits';
import { queueLockoutNotice } from './mail';
import { createChallenge } from './two-factor';

/** One answer for an unknown user and a wrong password, so neither reveals which accounts exist. */
export const INVALID_LOGIN = 'Invalid username or password';
export const LOCKED = 'Too many failed sign-in attempts. The account is locked for 10 minutes.';

export type PasswordOutcome = { kind: 'session'; user: User } | { kind: 'challenge'; user: User; challenge: string };

const unknownKey = (login: string) => `login-unknown:${login.trim().toLowerCase()}`;

/**
 * The password step. A locked account is refused without checking the password; five
 * consecutive failures lock it for 10 minutes and e-mail its owner (in the same transaction).
 * Unknown names are locked the same way (counted in `rate_limit`), so the answers match.
 */
export async function signInWithPassword(db: Db, login: string, password: string, ipAddress?: string): Promise<PasswordOutcome> {
  const user = await findUserByLogin(db, login);
  const at = now();
  if (user ? user.lockedUntil && user.lockedUntil > at : await unknownLocked(db, login, at)) {
    throw new HttpError(423, LOCKED);
  }
  const ok = await checkPassword(user ? await credentialHash(db, user.id) : null, password);
  if (!user || !ok) {
    await (user ? recordFailure(db, user) : recordUnknownFailure(db, login, at));
    throw new HttpError(401, INVALID_LOGIN);
  }
  if (user.twoFactorEnabled) {
    await db.update(users).set({ failedLoginCount: 0 }).where(eq(users.id, user.id));
    return { kind: 'challenge', user, challenge: await createChallenge(db, user, ipAddress) };
  }
  return { kind: 'session', user };
}

async function recordFailure(db: Db, user: User): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ failedLoginCount: sql`${users.failedLoginCount} + 1` })
      .where(eq(users.id, user.id))
      .returning({ count: users.failedLoginCount });
    if ((row?.count ?? 0) < LOCKOUT_THRESHOLD) return;
    await tx
      .update(users)
      .set({ failedLoginCount: 0, lockedUntil: new Date(now().getTime() + LOCKOUT_MS) })
      .where(eq(users.id, user.id));
    await queueLockoutNotice(tx, user.email, LOCKOUT_MS / 60_000);
  });
}

async function unknownLocked(db: Db, login: string, at: Date): Promise<boolean> {
  const [row] = await db
    .select()
    .from(rateLimits)
    .where(eq(rateLimits.key, unknownKey(login)));
  return Boolean(row && row.count >= LOCKOUT_THRESHOLD && row.windowStart.getTime() + LOCKOUT_MS > at.getTime());
}

async function recordUnknownFailure(db: Db, login: string, at: Date): Promise<void> {
  const key = unknownKey(login);
  const cutoff = new Date(at.getTime() - LOCKOUT_MS);
  // Same shape as a lockout: the window restarts once the previous one has passed.
  await db
    .insert(rateLimits)
    .values({ key, count: 1, windowStart: at })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= ${cutoff.toISOString()}::timestamptz then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${rateLimits.windowStart} <= ${cutoff.toISOString()}::timestamptz then ${at.toISOString()}::timestamptz else ${rateLimits.windowStart} end`,
      },
    });
}
