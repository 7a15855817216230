import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rateLimits } from '../db/schema';
import { HttpError } from '../http';

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
  /** When the current window ends (epoch ms). */
  resetAtMs: number;
}

interface Limit {
  key: string;
  limit: number;
  windowMs: number;
}

/**
 * Counts one hit against each key in a fixed window kept in the database, so limits survive
 * restarts and hold across instances. One atomic upsert for all the keys (one round trip): a key's
 * new window starts when its old one has passed. Results come in the order of `limits`; callers
 * that hit several keys together always list them in the same order, so concurrent hits lock the
 * rows in the same order.
 */
async function hitAll(db: Db | Tx, limits: readonly Limit[], now = new Date()): Promise<RateLimitResult[]> {
  const iso = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
  const cutoff = sql`case ${rateLimits.key} ${sql.join(
    limits.map((l) => sql`when ${l.key} then ${iso(now.getTime() - l.windowMs)}`),
    sql` `,
  )} end`;
  const rows = await db
    .insert(rateLimits)
    .values(limits.map((l) => ({ key: l.key, count: 1, windowStart: now })))
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= ${cutoff} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${rateLimits.windowStart} <= ${cutoff} then ${iso(now.getTime())} else ${rateLimits.windowStart} end`,
      },
    })
    .returning();
  return limits.map((l) => {
    const row = rows.find((r) => r.key === l.key)!;
    const resetAt = row.windowStart.getTime() + l.windowMs;
    return {
      allowed: row.count <= l.limit,
      count: row.count,
      retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)),
      resetAtMs: resetAt,
    };
  });
}

/** Counts one hit against `key` (see `hitAll`). */
export async function hit(db: Db | Tx, key: string, limit: number, windowMs: number, now = new Date()): Promise<RateLimitResult> {
  return (await hitAll(db, [{ key, limit, windowMs }], now))[0]!;
}

/** Throws 429 with Retry-After when the limit is exceeded. */
export async function enforce(
  db: Db,
  key: string,
  limit: number,
  windowMs: number,
  message = 'Too many requests. Please try again later.',
  now = new Date(),
): Promise<void> {
  const r = await hit(db, key, limit, windowMs, now);
  if (!r.allowed) throw new HttpError(429, message, { 'retry-after': String(r.retryAfterSeconds) });
}
