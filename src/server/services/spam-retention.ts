import { and, count, eq, like, lt } from 'drizzle-orm';
import { now as clockNow } from '../clock';
import type { Db } from '../db/client';
import { contactSubmissions, rateLimits } from '../db/schema';
import { env } from '../env';
import { recordAudit, type Actor } from './audit';
import { lockJob, recordJobRun, sinceRun } from './job-runs';

const DAY_MS = 24 * 60 * 60 * 1000;
const JOB = 'spam-retention';
/** Who the Activity list names for changes the server makes by itself. */
const SYSTEM_ACTOR: Actor = { id: 'system', username: 'System' };

export interface RetentionResult {
  deleted: number;
  days: number;
}

/**
 * The daily clean-up that keeps storage bounded through floods: deletes suspected spam older than
 * SPAM_RETENTION_DAYS (nothing that is not marked spam, however old) and the contact form's
 * expired rate-limit counters, with an audit line saying how many messages went. Runs once a day
 * across instances (job-runs.ts); null when this call found it already done.
 */
export async function deleteOldSpam(db: Db, opts: { now?: Date } = {}): Promise<RetentionResult | null> {
  const now = opts.now ?? clockNow();
  const days = env().SPAM_RETENTION_DAYS;
  return db.transaction(async (tx) => {
    const last = await lockJob<{ ranAt: string }>(tx, JOB);
    if (sinceRun(last?.ranAt, now) < DAY_MS) return null;
    const cutoff = new Date(now.getTime() - days * DAY_MS);
    const gone = tx.$with('gone').as(
      tx
        .delete(contactSubmissions)
        .where(and(eq(contactSubmissions.isSpam, true), lt(contactSubmissions.createdAt, cutoff)))
        .returning({ id: contactSubmissions.id }),
    );
    const [{ deleted } = { deleted: 0 }] = await tx.with(gone).select({ deleted: count() }).from(gone);
    // Every contact form window is at most a day long: older counters are finished.
    await tx.delete(rateLimits).where(and(like(rateLimits.key, 'contact:%'), lt(rateLimits.windowStart, new Date(now.getTime() - DAY_MS))));
    if (deleted > 0) {
      await recordAudit(tx, SYSTEM_ACTOR, {
        action: 'delete',
        entity: 'spam-retention',
        entityId: 'contact-submission',
        after: { deleted, olderThanDays: days },
        subject: `${deleted} suspected spam older than ${days} days`,
      });
    }
    await recordJobRun(tx, JOB, { ranAt: now.toISOString(), deleted });
    return { deleted, days };
  });
}
