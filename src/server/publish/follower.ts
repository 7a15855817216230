import { randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import { deepFreeze } from '../content/frozen';
import { snapshotContent, type SiteContent } from '../content/site-content';
import type { Db, DbHandle } from '../db/client';
import { log } from '../log';
import type { ReleaseInfo } from './live-site';
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
import type { ReleaseStore } from './release-store';

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

/** One build at a time on this instance, in the order asked. */
class Lane {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => {});
    return run;
  }
  idle(): Promise<unknown> {
    return this.tail;
  }
}

/** What the follower of one instance knows: the version it serves, the newest it claimed, the last that failed. */
class Following {
  readonly id = randomBytes(8).toString('hex');
  /** The version this instance serves, and the newest one it claimed itself. */
  version: number;
  leading = 0;
  failed: { id: number; retryAt: number } | undefined;
  stopped = false;
  readonly lane = new Lane();
  private checking: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly store: ReleaseStore,
    private readonly db: Db,
    private readonly opts: FollowerOptions,
  ) {
    this.version = opts.startVersion;
  }

  /** Tells the database which release this instance serves. */
  readonly beat = async (): Promise<void> => {
    const live = this.store.live.release();
    try {
      if (live) await markReleaseInUse(live.id);
      await heartbeat(this.db, { id: this.id, version: this.version, contentHash: live?.contentHash ?? null, releaseId: live?.id ?? null });
    } catch (err) {
      log.warn('instance heartbeat failed', { err });
    }
  };

  /** Makes version `v` live here: the release another instance built, when this one can read it, else built here. */
  private async goLiveOn(v: ContentVersion): Promise<void> {
    // On a RELEASES_DIR shared with the instance that built it, its release is loaded as it is.
    const shared = v.status === 'succeeded' && v.releaseId ? await readRelease(v.releaseId) : null;
    if (shared && shared.contentHash === v.contentHash && shared.codeVersion === (await codeVersion())) {
      await goLive(this.store, shared);
      log.info('following the release another instance built', { version: v.id, release: shared.id });
      return;
    }
    // Not there when it was not shared (no other instance ran when it was recorded) or a newer
    // version has replaced it since: the database as it is now holds that version or a newer one.
    const recorded = await versionContent(this.db, v.id);
    const content = recorded ? deepFreeze(recorded) : await snapshotContent(this.db, this.store.snapshots);
    const info = await publishContent(this.store, content, this.opts.buildOpts);
    log.info('followed a publish of another instance', { version: v.id, release: info.id });
  }

  /** Follows the newest version, if it is newer than what this instance serves or claimed. */
  private async followNewest(): Promise<void> {
    const newest = await newestVersion(this.db);
    if (!newest || newest.id <= Math.max(this.version, this.leading)) return;
    if (this.failed?.id === newest.id && Date.now() < this.failed.retryAt) return;
    if (this.store.live.release()?.contentHash === newest.contentHash) {
      // The same pages, but a public API answer may still differ (e.g. a date): made again.
      this.store.live.changed();
      this.version = newest.id;
      await this.beat();
      return;
    }
    try {
      await this.lane.run(async () => {
        if (newest.id > Math.max(this.version, this.leading) && !this.stopped) await this.goLiveOn(newest);
      });
      this.version = Math.max(this.version, newest.id);
      this.failed = undefined;
    } catch (err) {
      this.failed = { id: newest.id, retryAt: Date.now() + RETRY_MS };
      log.error('building a release of another instance’s publish failed; the previous release stays live', { version: newest.id, err });
    }
    await this.beat();
  }

  /** Looks for a newer version now (one look at a time; a call during one asks for another). */
  readonly check = (): Promise<void> => {
    if (this.stopped || this.opts.follow === false) return Promise.resolve();
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = (async () => {
      do {
        this.again = false;
        await this.followNewest();
      } while (this.again && !this.stopped);
    })()
      .catch((err) => log.warn('looking for a newer publish failed', { err }))
      .finally(() => (this.checking = undefined));
    return this.checking;
  };

  /** Publishes the job this instance claimed: records its snapshot as a version, then builds it. */
  async publish(jobId: number, content: SiteContent): Promise<ReleaseInfo> {
    this.leading = Math.max(this.leading, jobId);
    await recordVersion(this.db, jobId, content, contentHash(content), await othersRunning(this.db, this.id));
    const info = await this.lane.run(() => publishContent(this.store, content, this.opts.buildOpts));
    this.version = Math.max(this.version, jobId);
    await this.beat();
    return info;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.checking;
    await this.lane.idle();
    await stopCompressing(this.store);
    await leave(this.db, this.id).catch((err) => log.warn('leaving the instance list failed', { err }));
  }
}

/** Hears of new versions (LISTEN/NOTIFY on Postgres): answers how to stop listening, if it could listen. */
async function listenForVersions(handle: DbHandle, check: () => void): Promise<(() => Promise<void>) | undefined> {
  if (handle.kind !== 'postgres') return undefined;
  try {
    const client = (handle.db as unknown as { $client: Sql }).$client;
    const sub = await client.listen(VERSION_CHANNEL, check);
    return () => sub.unlisten();
  } catch (err) {
    log.warn('publish notifications unavailable; polling instead', { err });
    return undefined;
  }
}

/** Starts following other instances' publishes into `store`, and this instance's heartbeat. */
export async function startFollower(store: ReleaseStore, handle: DbHandle, opts: FollowerOptions): Promise<Follower> {
  const following = new Following(store, handle.db, opts);
  const follow = opts.follow !== false;
  const unlisten = follow ? await listenForVersions(handle, () => void following.check()) : undefined;
  const pollMs = opts.pollMs ?? 1000;
  const poll = follow && pollMs > 0 ? setInterval(() => void following.check(), pollMs) : undefined;
  poll?.unref();
  const pulse = setInterval(() => void following.beat(), opts.heartbeatMs ?? 5000);
  pulse.unref();
  await following.beat();
  void following.check();

  return {
    id: following.id,
    publish: (jobId, content) => following.publish(jobId, content),
    check: following.check,
    async stop() {
      clearInterval(poll);
      clearInterval(pulse);
      following.stopped = true;
      await unlisten?.().catch(() => {});
      await following.stop();
    },
  };
}
