import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { appMeta } from '../db/schema';

/*
 * Background jobs that must run once per period across every instance (the leads digest, the
 * spam clean-up) keep their last run in app_meta. A run locks that row for its transaction: a
 * second instance arriving at the same moment waits, then reads the first one's run and finds
 * nothing due. A run that fails rolls back with its record, so the next pass tries again.
 */

const keyOf = (job: string) => `job:${job}`;

/** Locks the job's record for the caller's transaction and returns what the last run stored (null before the first). */
export async function lockJob<T extends object>(tx: Tx, job: string): Promise<Partial<T> | null> {
  await tx
    .insert(appMeta)
    .values({ key: keyOf(job), value: {} })
    .onConflictDoNothing();
  const [row] = await tx
    .select({ value: appMeta.value })
    .from(appMeta)
    .where(eq(appMeta.key, keyOf(job)))
    .for('update');
  const value = row?.value;
  return value && typeof value === 'object' && Object.keys(value).length > 0 ? (value as Partial<T>) : null;
}

/** Stores this run's record (in the transaction that did the work). */
export async function recordJobRun<T extends object>(tx: Tx, job: string, state: T): Promise<void> {
  await tx
    .update(appMeta)
    .set({ value: state })
    .where(eq(appMeta.key, keyOf(job)));
}

/** Milliseconds since an ISO time stored by a run, or Infinity when there is none. */
export function sinceRun(at: string | undefined, now: Date): number {
  const t = at ? Date.parse(at) : NaN;
  return Number.isFinite(t) ? now.getTime() - t : Infinity;
}
