import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits, users, type User } from '../db/schema';
import { HttpError } from '../http';
import { hit } from '../services/rate-limit';
import { now } from '../clock';
import { LOCKOUT_MS, LOCKOUT_THRESHOLD } from './limits';
import { queueLockoutNotice } from './mail';

export const LOCKED = 'Too many failed sign-in attempts. The account is locked for 10 minutes.';

/**
 * Who is trying (OWASP's device-cookie scheme): a browser holding a device cookie for the account
 * has a lockout of its own; every other client shares the account's lockout for unknown clients.
 * Five failures in a row (passwords and two-factor codes alike) lock the one that failed.
 */
export type SignInClient = { device: string } | { device?: undefined };

const deviceKey = (nonce: string) => `login-device:${nonce}`;
const noticeKey = (userId: string) => `lockout-notice:${userId}`;
/** The owner hears of a lockout of unknown clients at most once a day, however often it recurs. */
const NOTICE_EVERY_MS = 24 * 3600_000;

/** 423 when the client's lockout is on. */
export async function assertNotLocked(db: Db, user: User, client: SignInClient): Promise<void> {
  const locked = client.device ? await keyLocked(db, deviceKey(client.device)) : Boolean(user.lockedUntil && user.lockedUntil > now());
  if (locked) throw new HttpError(423, LOCKED);
}

/** Counts a failed password or code; the fifth in a row locks this client for 10 minutes. */
export async function recordFailure(db: Db, user: User, client: SignInClient): Promise<void> {
  if (client.device) return recordKeyFailure(db, deviceKey(client.device));
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
    // At most one notice a day: the first row of the day wins the insert.
    const cutoff = new Date(now().getTime() - NOTICE_EVERY_MS);
    const [fresh] = await tx
      .insert(rateLimits)
      .values({ key: noticeKey(user.id), count: 1, windowStart: now() })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: { count: 1, windowStart: now() },
        setWhere: sql`${rateLimits.windowStart} <= ${cutoff.toISOString()}::timestamptz`,
      })
      .returning({ key: rateLimits.key });
    if (fresh) await queueLockoutNotice(tx, user.email, LOCKOUT_MS / 60_000);
  });
}

/** A success ends this client's run of failures (not the lockout of other clients). */
export async function clearFailures(db: Db, user: User, client: SignInClient): Promise<void> {
  if (client.device) await db.delete(rateLimits).where(eq(rateLimits.key, deviceKey(client.device)));
  else if (user.failedLoginCount) await db.update(users).set({ failedLoginCount: 0 }).where(eq(users.id, user.id));
}

/** A lockout kept in `rate_limit`: `count` failures since `windowStart`. */
export async function keyLocked(db: Db, key: string): Promise<boolean> {
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key));
  return Boolean(row && row.count >= LOCKOUT_THRESHOLD && row.windowStart.getTime() + LOCKOUT_MS > now().getTime());
}

/** One more failure for `key`, in the same fixed window the rate limits use (LOCKOUT_MS long). */
export async function recordKeyFailure(db: Db, key: string): Promise<void> {
  await hit(db, key, LOCKOUT_THRESHOLD, LOCKOUT_MS, now());
}
