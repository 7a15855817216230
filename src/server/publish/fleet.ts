import { and, desc, eq, gt, inArray, isNotNull, lt, ne, sql } from 'drizzle-orm';
import type { SiteContent } from '../content/site-content';
import type { Db } from '../db/client';
import { appInstances, publishJobs } from '../db/schema';

/*
 * What several instances on one Postgres share about publishing: the content version each local
 * publish job records when it is claimed (its snapshot, which every instance builds), and a
 * heartbeat row per instance saying which version it serves.
 */

/** The channel a claimed version is announced on (LISTEN/NOTIFY; polling covers its absence). */
export const VERSION_CHANNEL = 'publish_version';
/** An instance whose heartbeat is older than this is gone (stopped, crashed, cut off). */
const INSTANCE_TTL_MS = 15_000;

export interface ContentVersion {
  /** The publish job's id: versions are claimed one at a time, so a higher id is newer content. */
  id: number;
  contentHash: string;
  status: 'building' | 'succeeded';
  releaseId: string | null;
}

/**
 * Records the content version a claimed job publishes, clears the snapshots of older jobs (their
 * hashes stay) and announces the version. Runs before the build, so other instances build at the
 * same time. The snapshot itself is stored only while another instance runs (`share`): it is the
 * whole content (25 MB at 3,000 articles), and an instance that finds no snapshot for a version
 * reads the database itself (follower.ts), which is at least as new.
 */
export async function recordVersion(db: Db, jobId: number, content: SiteContent, hash: string, share: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(publishJobs)
      .set({ contentHash: hash, content: share ? JSON.stringify(content) : null })
      .where(eq(publishJobs.id, jobId));
    await tx
      .update(publishJobs)
      .set({ content: null })
      .where(and(lt(publishJobs.id, jobId), isNotNull(publishJobs.content)));
    // Delivered when the transaction commits, so a listener always finds the row.
    await tx.execute(sql`select pg_notify(${VERSION_CHANNEL}, ${String(jobId)})`);
  });
}

/** Whether an instance other than `self` has sent a heartbeat lately. */
export async function othersRunning(db: Db, self: string): Promise<boolean> {
  const [row] = await db
    .select({ id: appInstances.id })
    .from(appInstances)
    .where(and(ne(appInstances.id, self), gt(appInstances.seenAt, sql`now() - ${INSTANCE_TTL_MS / 1000}::float8 * interval '1 second'`)))
    .limit(1);
  return row !== undefined;
}

/** The newest content version that is being built or was built (a failed one is skipped). */
export async function newestVersion(db: Db): Promise<ContentVersion | null> {
  const [row] = await db
    .select({ id: publishJobs.id, contentHash: publishJobs.contentHash, status: publishJobs.status, releaseId: publishJobs.releaseId })
    .from(publishJobs)
    .where(and(isNotNull(publishJobs.contentHash), inArray(publishJobs.status, ['building', 'succeeded'])))
    .orderBy(desc(publishJobs.id))
    .limit(1);
  if (!row?.contentHash) return null;
  return { ...row, contentHash: row.contentHash, status: row.status === 'building' ? 'building' : 'succeeded' };
}

/** The snapshot of a version; null once a newer version has replaced it, or when it was not shared. */
export async function versionContent(db: Db, id: number): Promise<SiteContent | null> {
  const [row] = await db.select({ content: publishJobs.content }).from(publishJobs).where(eq(publishJobs.id, id));
  return row?.content ? (JSON.parse(row.content) as SiteContent) : null;
}

export interface InstanceBeat {
  id: string;
  version: number;
  contentHash: string | null;
  releaseId: string | null;
}

export async function heartbeat(db: Db, beat: InstanceBeat): Promise<void> {
  const { id: _id, ...rest } = beat;
  await db
    .insert(appInstances)
    .values({ ...beat, seenAt: sql`now()` })
    .onConflictDoUpdate({ target: appInstances.id, set: { ...rest, seenAt: sql`now()` } });
}

/** A stopping instance leaves at once; long-gone ones are swept here too. */
export async function leave(db: Db, id: string): Promise<void> {
  await db.delete(appInstances).where(sql`${appInstances.id} = ${id} or ${appInstances.seenAt} < now() - interval '1 day'`);
}

/** How many instances are running, and how many of them serve the newest published content. */
export async function fleetStatus(db: Db): Promise<{ total: number; upToDate: number }> {
  const live = await db
    .select({ contentHash: appInstances.contentHash, version: appInstances.version })
    .from(appInstances)
    .where(gt(appInstances.seenAt, sql`now() - ${INSTANCE_TTL_MS / 1000}::float8 * interval '1 second'`));
  const newest = await newestVersion(db);
  const upToDate = newest ? live.filter((i) => i.contentHash === newest.contentHash).length : live.length;
  return { total: live.length, upToDate };
}
