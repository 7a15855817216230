import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';
import { enforce } from '../services/rate-limit';
import { now } from '../clock';

/** At most 5 failed attempts a minute per client address on each of these (ASVS V2.2.1). */
const ATTEMPTS_PER_MINUTE = 5;
const ATTEMPT_WINDOW_MS = 60_000;
/** Five consecutive failures on one account lock it for ten minutes. */
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_MS = 10 * 60_000;

export type AttemptScope = 'login' | '2fa' | 'password' | 'register' | 'reset';

/**
 * Counts an attempt from this address (429 + Retry-After past the limit) and returns a refund:
 * a successful attempt gives its slot back, so only failures use up the allowance and one
 * office behind one address can still sign in many times.
 */
export async function countAttempt(db: Db, scope: AttemptScope, ip: string | undefined): Promise<() => Promise<void>> {
  const key = `${scope}:ip:${ip ?? 'unknown'}`;
  await enforce(db, key, ATTEMPTS_PER_MINUTE, ATTEMPT_WINDOW_MS, 'Too many attempts. Please wait a minute and try again.', now());
  return async () => {
    await db
      .update(rateLimits)
      .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
      .where(sql`${rateLimits.key} = ${key}`);
  };
}
