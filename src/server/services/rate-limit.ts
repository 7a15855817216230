import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rateLimits } from '../db/schema';
import { HttpError } from '../http';

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * Counts one hit against `key` in a fixed window kept in the database, so limits survive
 * restarts and hold across instances. One atomic upsert: a new window starts when the old one
 * has passed.
 */
export async function hit(db: Db | Tx, key: string, limit: number, windowMs: number, now = new Date()): Promise<RateLimitResult> {
  const cutoff = sql`${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
  const nowSql = sql`${now.toISOString()}::timestamptz`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, windowStart: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= ${cutoff} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${rateLimits.windowStart} <= ${cutoff} then ${nowSql} else ${rateLimits.windowStart} end`,
      },
    })
    .returning();
  const count = row!.count;
  const resetAt = row!.windowStart.getTime() + windowMs;
  return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)) };
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
