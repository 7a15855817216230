/**
 * An instance publishing while no other runs records its content version without the snapshot
 * (the whole content: 25 MB at 3,000 articles). An instance that then follows that version reads
 * the database itself, which holds that version or a newer one.
 */
import fs from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotContent } from '#server/content/site-content.ts';
import { setDbHandle, type DbHandle } from '#server/db/client.ts';
import { publishJobs } from '#server/db/schema/index.ts';
import { seed } from '#server/services/seed.ts';
import { othersRunning, recordVersion, versionContent } from '#server/publish/fleet.ts';
import { startFollower } from '#server/publish/follower.ts';
import { enqueue } from '#server/publish/jobs.ts';
import { ReleaseStore } from '#server/publish/release-store.ts';
import { contentHash } from '#server/publish/releases.ts';
import { openTestDatabase } from './helpers/db';

const RELEASES = `.releases-test-${process.pid}`;
let handle: DbHandle;

beforeAll(async () => {
  process.env.RELEASES_DIR = RELEASES;
  handle = await openTestDatabase();
  setDbHandle(handle);
  await seed(handle.db);
}, 60_000);
afterAll(async () => {
  setDbHandle(undefined);
  await handle.close();
  await fs.rm(RELEASES, { recursive: true, force: true });
});

describe('[PUBLISH][FLEET] a version recorded while no other instance ran', () => {
  it('stores no snapshot, and a follower builds what the database holds', async () => {
    const db = handle.db;
    const content = await snapshotContent(db);
    const job = await enqueue(db, { mode: 'local', reason: 'test', now: Date.now() });
    expect(await othersRunning(db, 'publisher-alone')).toBe(false);
    await recordVersion(db, job.id, content, contentHash(content), false);
    await db.update(publishJobs).set({ status: 'building', startedAt: new Date() }).where(eq(publishJobs.id, job.id));
    expect(await versionContent(db, job.id)).toBeNull();

    const store = new ReleaseStore();
    const follower = await startFollower(store, handle, { startVersion: job.id - 1, buildOpts: {}, pollMs: 0 });
    try {
      // Its heartbeat counts: a publish now would share its snapshot.
      expect(await othersRunning(db, 'publisher-alone')).toBe(true);
      await follower.check();
      expect(store.live.release()?.contentHash).toBe(contentHash(content));
    } finally {
      await follower.stop();
    }
  }, 120_000);
});
