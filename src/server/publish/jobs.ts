import { and, asc, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { PublishStatus } from '#shared/responses.ts';
import type { Db, Tx } from '../db/client';
import { publishAttempts, publishJobs, type PublishJob } from '../db/schema';
import { fleetStatus } from './fleet';

/*
 * Publish jobs in the database, so that the status survives restarts and several server
 * instances can share one Postgres. One queued job at most: writes while it waits join it (they
 * coalesce); a write while a job builds queues the next one, so it causes exactly one more build.
 * Jobs run one at a time across all instances, in order, so an older build never goes live
 * after a newer one.
 */

export type PublishMode = 'local' | 'webhook';

/** Serialises enqueue and claim across instances (any constant; it names this purpose). */
const PUBLISH_LOCK = 74_210_517;
/** A job still "building" after this long belonged to an instance that died. */
export const STALE_BUILD_MS = 10 * 60 * 1000;
const MAX_REASON = 500;

const iso = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

async function lock(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PUBLISH_LOCK})`);
}

function oldestQueued(tx: Tx, skipLocked: boolean) {
  return tx
    .select()
    .from(publishJobs)
    .where(eq(publishJobs.status, 'queued'))
    .orderBy(asc(publishJobs.id))
    .limit(1)
    .for('update', skipLocked ? { skipLocked: true } : {});
}

/** Adds a reason to the waiting job, or queues a new job. Answers the queued job. */
export async function enqueue(db: Db, opts: { mode: PublishMode; reason: string; now: number }): Promise<PublishJob> {
  return db.transaction(async (tx) => {
    await lock(tx);
    const [waiting] = await oldestQueued(tx, false);
    if (waiting) {
      const reasons = new Set((waiting.reason ?? '').split(', ').filter(Boolean));
      reasons.add(opts.reason);
      const reason = [...reasons].join(', ').slice(0, MAX_REASON);
      if (reason === waiting.reason) return waiting;
      const [updated] = await tx.update(publishJobs).set({ reason }).where(eq(publishJobs.id, waiting.id)).returning();
      return updated!;
    }
    const [job] = await tx
      .insert(publishJobs)
      .values({ status: 'queued', mode: opts.mode, reason: opts.reason.slice(0, MAX_REASON), requestedAt: new Date(opts.now) })
      .returning();
    return job!;
  });
}

/**
 * Takes the queued job once it has waited `debounceMs` (writes close together share it), unless
 * a job is building anywhere. Answers the claimed job, or when the queued one is next due.
 */
export async function claim(db: Db, opts: { now: number; debounceMs: number }): Promise<{ job: PublishJob } | { dueAt: number | null }> {
  return db.transaction(async (tx) => {
    await lock(tx);
    const [busy] = await tx
      .select({ id: publishJobs.id })
      .from(publishJobs)
      .where(and(eq(publishJobs.status, 'building'), sql`${publishJobs.startedAt} > ${iso(opts.now - STALE_BUILD_MS)}`))
      .limit(1);
    const [next] = await oldestQueued(tx, true);
    if (!next) return { dueAt: null };
    const dueAt = next.requestedAt.getTime() + opts.debounceMs;
    if (busy || dueAt > opts.now) return { dueAt: busy ? opts.now + 250 : dueAt };
    const [job] = await tx
      .update(publishJobs)
      .set({ status: 'building', startedAt: new Date(opts.now) })
      .where(eq(publishJobs.id, next.id))
      .returning();
    return { job: job! };
  });
}

export async function succeed(db: Db, job: PublishJob, opts: { now: number; releaseId?: string; attempts?: number }) {
  await db
    .update(publishJobs)
    .set({
      status: 'succeeded',
      finishedAt: new Date(opts.now),
      durationMs: opts.now - (job.startedAt?.getTime() ?? opts.now),
      releaseId: opts.releaseId ?? null,
      attempts: opts.attempts ?? 1,
      error: null,
    })
    .where(eq(publishJobs.id, job.id));
}

export async function fail(db: Db, job: PublishJob, opts: { now: number; error: string; attempts?: number }) {
  await db
    .update(publishJobs)
    .set({
      status: 'failed',
      finishedAt: new Date(opts.now),
      durationMs: opts.now - (job.startedAt?.getTime() ?? opts.now),
      attempts: opts.attempts ?? 1,
      error: opts.error.slice(0, 2000),
    })
    .where(eq(publishJobs.id, job.id));
}

/** Records a publish that did not go through the queue (the build at start). */
export async function recordCompleted(
  db: Db,
  opts: { mode: PublishMode; reason: string; startedAt: number; finishedAt: number } & (
    { status: 'succeeded'; releaseId: string } | { status: 'failed'; error: string }
  ),
) {
  await db.insert(publishJobs).values({
    status: opts.status,
    mode: opts.mode,
    reason: opts.reason,
    requestedAt: new Date(opts.startedAt),
    startedAt: new Date(opts.startedAt),
    finishedAt: new Date(opts.finishedAt),
    durationMs: opts.finishedAt - opts.startedAt,
    releaseId: opts.status === 'succeeded' ? opts.releaseId : null,
    error: opts.status === 'failed' ? opts.error.slice(0, 2000) : null,
    attempts: 1,
  });
}

/** One webhook call of a job. */
export async function recordAttempt(db: Db, jobId: number, attempt: { attempt: number; statusCode: number | null; error: string | null }) {
  await db.insert(publishAttempts).values({ jobId, ...attempt });
}

export async function attemptsOf(db: Db, jobId: number) {
  return db.select().from(publishAttempts).where(eq(publishAttempts.jobId, jobId)).orderBy(asc(publishAttempts.attempt));
}

/**
 * Jobs left "building" by an instance that died go back to the queue (all of them when
 * `before` is now: the embedded database has one process only). A webhook job whose hook
 * already answered 2xx is marked done instead, so a batch is never sent twice.
 */
export async function recoverStale(db: Db, opts: { before: number; now: number }): Promise<number> {
  const stale = await db
    .select()
    .from(publishJobs)
    .where(and(eq(publishJobs.status, 'building'), lt(publishJobs.startedAt, new Date(opts.before))));
  for (const job of stale) {
    const delivered = (await attemptsOf(db, job.id)).filter((a) => a.statusCode !== null && a.statusCode < 300 && a.statusCode >= 200);
    if (delivered.length) await succeed(db, job, { now: opts.now, attempts: job.attempts });
    else await db.update(publishJobs).set({ status: 'queued', startedAt: null }).where(eq(publishJobs.id, job.id));
  }
  return stale.length;
}

/** What the back office shows: building > queued > failed (since the last success) > idle. */
export async function publishStatus(db: Db, now = Date.now()): Promise<PublishStatus> {
  const active = await db
    .select({ status: publishJobs.status, n: count() })
    .from(publishJobs)
    .where(
      and(
        inArray(publishJobs.status, ['queued', 'building']),
        sql`(${publishJobs.status} = 'queued' or ${publishJobs.startedAt} > ${iso(now - STALE_BUILD_MS)})`,
      ),
    )
    .groupBy(publishJobs.status);
  const [lastOk] = await db
    .select()
    .from(publishJobs)
    .where(eq(publishJobs.status, 'succeeded'))
    .orderBy(desc(publishJobs.finishedAt), desc(publishJobs.id))
    .limit(1);
  const [lastFinished] = await db
    .select()
    .from(publishJobs)
    .where(inArray(publishJobs.status, ['succeeded', 'failed']))
    .orderBy(desc(publishJobs.finishedAt), desc(publishJobs.id))
    .limit(1);
  const failed = lastFinished?.status === 'failed' ? lastFinished : undefined;
  const has = (s: string) => active.some((a) => a.status === s && a.n > 0);
  return {
    state: has('building') ? 'building' : has('queued') ? 'queued' : failed ? 'failed' : 'idle',
    lastPublishedAt: lastOk?.finishedAt?.toISOString() ?? null,
    lastDurationMs: lastOk?.durationMs ?? null,
    lastError: failed?.error ?? null,
    lastErrorMode: failed ? (failed.mode === 'webhook' ? 'webhook' : 'local') : null,
    instances: await fleetStatus(db),
  };
}

export async function listJobs(db: Db): Promise<PublishJob[]> {
  return db.select().from(publishJobs).orderBy(asc(publishJobs.id));
}
