import { randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import { contentChanged } from '../content/generation';
import { snapshotContent, type SiteContent } from '../content/site-content';
import type { DbHandle } from '../db/client';
import { log } from '../log';
import { liveRelease, type ReleaseInfo } from '../web/live-site';
import {
  heartbeat,
  leave,
  newestVersion,
  othersRunning,
  recordVersion,
  VERSION_CHANNEL,
  versionContent,
  type ContentVersion,
} from './fleet';
import { goLive, publishContent, stopCompressing } from './go-live';
import { codeVersion, contentHash, markReleaseInUse, readRelease, type BuildOptions } from './releases';

/*
 * Keeps this instance on the newest published content when several instances share one Postgres,
 * each with its own disk. The instance that claims a publish job records the job's snapshot as a
 * content version before it builds (`publish`); every other instance hears of it (LISTEN/NOTIFY,
 * or a cheap poll when notifications do not arrive, e.g. behind a transaction-pooling proxy) and
 * builds the same snapshot with its own builder at the same time. Builds of one instance run one
 * after another and only ever move to a newer version. The job itself (and a webhook call) still
 * runs once, on the instance that claimed it.
 */

export interface FollowerOptions {
  /** The newest version recorded before this instance read the content its start release shows. */
  startVersion: number;
  buildOpts: BuildOptions;
  /** Follow other instances' versions (local mode); otherwise only the heartbeat runs. */
  follow?: boolean;
  /** How often to look for a newer version when no notification came (0: never). */
  pollMs?: number;
  /** How often to tell the database which release this instance serves. */
  heartbeatMs?: number;
}

export interface Follower {
  /** This instance's heartbeat id (random; it names no host). */
  id: string;
  /** Publishes the job this instance claimed: records its snapshot as a version, then builds it. */
  publish(jobId: number, content: SiteContent): Promise<ReleaseInfo>;
  /** Looks for a newer version now; resolves when this instance has followed it (or failed to). */
  check(): Promise<void>;
  stop(): Promise<void>;
}

/** A version whose build failed here is tried again after this long (unless a newer one comes). */
const RETRY_MS = 10_000;

export async function startFollower(handle: DbHandle, opts: FollowerOptions): Promise<Follower> {
  const db = handle.db;
  const id = randomBytes(8).toString('hex');
  const follow = opts.follow !== false;
  /** The version this instance serves, and the newest one it claimed itself. */
  let version = opts.startVersion;
  let leading = 0;
  let failed: { id: number; retryAt: number } | undefined;
  let stopped = false;
  let lane: Promise<unknown> = Promise.resolve();
  let checking: Promise<void> | undefined;
  let again = false;

  /** One build at a time on this instance, in the order asked. */
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = lane.then(work, work);
    lane = run.catch(() => {});
    return run;
  };

  const beat = async () => {
    const live = liveRelease();
    try {
      if (live) await markReleaseInUse(live.id);
      await heartbeat(db, { id, version, contentHash: live?.contentHash ?? null, releaseId: live?.id ?? null });
    } catch (err) {
      log.warn('instance heartbeat failed', { err });
    }
  };

  const goLiveOn = async (v: ContentVersion) => {
    // On a RELEASES_DIR shared with the instance that built it, its release is loaded as it is.
    const shared = v.status === 'succeeded' && v.releaseId ? await readRelease(v.releaseId) : null;
    if (shared && shared.contentHash === v.contentHash && shared.codeVersion === (await codeVersion())) {
      await goLive(shared);
      log.info('following the release another instance built', { version: v.id, release: shared.id });
      return;
    }
    // Not there when it was not shared (no other instance ran when it was recorded) or a newer
    // version has replaced it since: the database as it is now holds that version or a newer one.
    const content = (await versionContent(db, v.id)) ?? (await snapshotContent(db));
    const info = await publishContent(content, opts.buildOpts);
    log.info('followed a publish of another instance', { version: v.id, release: info.id });
  };

  const followNewest = async () => {
    const newest = await newestVersion(db);
    if (!newest || newest.id <= Math.max(version, leading)) return;
    if (failed?.id === newest.id && Date.now() < failed.retryAt) return;
    if (liveRelease()?.contentHash === newest.contentHash) {
      // The same pages, but a public API answer may still differ (e.g. a date): made again.
      contentChanged();
      version = newest.id;
      await beat();
      return;
    }
    try {
      await exclusive(async () => {
        if (newest.id > Math.max(version, leading) && !stopped) await goLiveOn(newest);
      });
      version = Math.max(version, newest.id);
      failed = undefined;
    } catch (err) {
      failed = { id: newest.id, retryAt: Date.now() + RETRY_MS };
      log.error('building a release of another instance’s publish failed; the previous release stays live', { version: newest.id, err });
    }
    await beat();
  };

  const check = (): Promise<void> => {
    if (stopped || !follow) return Promise.resolve();
    if (checking) {
      again = true;
      return checking;
    }
    checking = (async () => {
      do {
        again = false;
        await followNewest();
      } while (again && !stopped);
    })()
      .catch((err) => log.warn('looking for a newer publish failed', { err }))
      .finally(() => (checking = undefined));
    return checking;
  };

  let unlisten: (() => Promise<void>) | undefined;
  if (follow && handle.kind === 'postgres') {
    try {
      const client = (handle.db as unknown as { $client: Sql }).$client;
      const sub = await client.listen(VERSION_CHANNEL, () => void check());
      unlisten = () => sub.unlisten();
    } catch (err) {
      log.warn('publish notifications unavailable; polling instead', { err });
    }
  }
  const poll = follow && (opts.pollMs ?? 1000) > 0 ? setInterval(() => void check(), opts.pollMs ?? 1000) : undefined;
  poll?.unref();
  const pulse = setInterval(() => void beat(), opts.heartbeatMs ?? 5000);
  pulse.unref();
  await beat();
  void check();

  return {
    id,
    async publish(jobId, content) {
      leading = Math.max(leading, jobId);
      await recordVersion(db, jobId, content, contentHash(content), await othersRunning(db, id));
      const info = await exclusive(() => publishContent(content, opts.buildOpts));
      version = Math.max(version, jobId);
      await beat();
      return info;
    },
    check,
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearInterval(pulse);
      await unlisten?.().catch(() => {});
      await checking;
      await lane;
      await stopCompressing();
      await leave(db, id).catch((err) => log.warn('leaving the instance list failed', { err }));
    },
  };
}
