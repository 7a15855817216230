import { snapshotContent, type SiteContent } from '../content/site-content';
import { getDb, getDbHandle, type Db, type DbHandle } from '../db/client';
import type { PublishJob } from '../db/schema';
import { currentSiteUrl, env } from '../env';
import { log } from '../log';
import { newestVersion } from './fleet';
import { startFollower, type Follower } from './follower';
import { ensureRelease } from './go-live';
import { claim, enqueue, fail, recordCompleted, recoverStale, STALE_BUILD_MS, succeed, type PublishMode } from './jobs';
import type { Builder } from './render';
import type { ReleaseStore } from './release-store';
import { deliverWebhook, hookSite, recordHookSite, WEBHOOK_DEFAULTS, type WebhookConfig } from './webhook';

/*
 * Publishing, one way: a service that changed what visitors see calls the publish request it was
 * given (content/changes.ts `RequestPublish`; the route passes the server's, release-store.ts
 * `requestPublish`), which calls `request` of the publisher publishing into that engine's store.
 * `request` records a publish job in the database and wakes the runner, which runs due jobs one at
 * a time: the pages rendered by the server bundle in this process (render.ts), checked, and made
 * the store's live release (go-live.ts), or a call of the deploy hook (REBUILD_WEBHOOK_URL).
 * Without a started publisher (the integration tests of other features) a change is only logged:
 * nothing builds.
 */

export interface PublisherOptions {
  /** The engine it publishes into: its live release, its memos (release-store.ts). */
  store: ReleaseStore;
  /** Wait after the first write of a batch so writes close together share one build (30 ms, 100 ms with a deploy hook). */
  debounceMs?: number;
  /** How often to look for jobs queued by other instances (0: never). */
  pollMs?: number;
  /** How often to look for content other instances published, when no notification came (0: never). */
  followMs?: number;
  /** The clock (tests). */
  now?: () => number;
  /** Waits between webhook retries (tests). */
  sleep?: (ms: number) => Promise<void>;
  /** The deploy hook; from the environment by default, `null` for local builds. */
  webhook?: (Partial<WebhookConfig> & { url: string }) | null;
  /** How releases are made: rendered by the server bundle in this process (render.ts) by default. */
  builder?: Builder;
  /** The files a release must contain (content/routes.ts by default). */
  expectedFiles?: (content: SiteContent) => string[];
  /** Serve the current release or build one before answering (default true). */
  ensureRelease?: boolean;
}

/** What the start served: a release it rendered, or the one already on disk (`error`: rendering failed). */
export interface StartRelease {
  id: string;
  pages: number;
  built: boolean;
  error?: string;
}

export interface Publisher {
  mode: PublishMode;
  /** The release served from the start (unless started with `ensureRelease: false`). */
  startRelease?: StartRelease;
  /** Records a publish request (coalescing) and wakes the runner. */
  request(reason: string): Promise<void>;
  /** Runs every due job now; resolves when the runner is idle again. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/** Queues a publish job where no publisher runs here: another instance, or the next start, runs it. */
export async function queuePublish(reason: string): Promise<void> {
  await enqueue(await getDb(), { mode: webhookFromEnv() ? 'webhook' : 'local', reason, now: Date.now() });
}

/** POST /api/admin/publish: a publish now, by the store's publisher, or queued when none runs. */
export async function publishNow(store: ReleaseStore, reason: string): Promise<void> {
  store.live.changed();
  const publisher = store.publisher;
  if (publisher) return publisher.request(reason);
  await queuePublish(reason);
}

function webhookFromEnv(): WebhookConfig | null {
  const e = env();
  if (!e.REBUILD_WEBHOOK_URL) return null;
  return {
    ...WEBHOOK_DEFAULTS,
    url: e.REBUILD_WEBHOOK_URL,
    secret: e.REBUILD_WEBHOOK_SECRET,
    secretHeader: e.REBUILD_WEBHOOK_SECRET_HEADER,
  };
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A publisher's settings, with their defaults. */
function settingsOf(opts: PublisherOptions) {
  const hook: WebhookConfig | null =
    opts.webhook === undefined ? webhookFromEnv() : opts.webhook && { ...WEBHOOK_DEFAULTS, ...opts.webhook };
  return {
    hook,
    mode: (hook ? 'webhook' : 'local') as PublishMode,
    now: opts.now ?? Date.now,
    pollMs: opts.pollMs ?? 2000,
    sleep: opts.sleep ?? realSleep,
    // A local publish of an edit takes a fraction of a second, and edits during one share the
    // next: a short wait. Each call of a deploy hook starts a whole build elsewhere: a longer one.
    debounceMs: opts.debounceMs ?? (hook ? 100 : 30),
    buildOpts: { builder: opts.builder, expectedFiles: opts.expectedFiles },
  };
}
type Settings = ReturnType<typeof settingsOf>;

/** Serves the current release or builds one, and records a build (or its failure) as a completed job. */
async function serveAtStart(store: ReleaseStore, db: Db, settings: Settings): Promise<StartRelease> {
  const started = settings.now();
  const { info, built, error } = await ensureRelease(store, db, settings.buildOpts);
  const finished = { mode: 'local' as const, reason: 'start', startedAt: started, finishedAt: settings.now() };
  if (built) await recordCompleted(db, { ...finished, status: 'succeeded', releaseId: info.id });
  else if (error) await recordCompleted(db, { ...finished, status: 'failed', error: error.message });
  return { id: info.id, pages: info.pages, built, ...(error ? { error: error.message } : {}) };
}

/** Runs the due publish jobs one at a time: a tick while one runs asks for another pass. */
class JobRunner {
  stopped = false;
  running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  constructor(
    private readonly store: ReleaseStore,
    private readonly db: Db,
    private readonly settings: Settings,
    private readonly follower: Follower,
  ) {}

  /** Ticks in `delayMs` (unless a tick is due sooner already). */
  schedule(delayMs: number): void {
    if (this.stopped) return;
    const at = this.settings.now() + Math.max(0, delayMs);
    if (this.timer && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        void this.tick();
      },
      Math.max(0, delayMs),
    );
    this.timer.unref();
  }

  cancel(): void {
    clearTimeout(this.timer);
  }

  readonly tick = (): Promise<void> => {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain()
      .catch((err) => log.error('publisher run failed', { err }))
      .finally(() => (this.running = undefined));
    return this.running;
  };

  private async drain(): Promise<void> {
    const { now, debounceMs } = this.settings;
    do {
      this.again = false;
      for (;;) {
        if (this.stopped) return;
        const next = await claim(this.db, { now: now(), debounceMs });
        if ('job' in next) {
          await this.runJob(next.job);
          continue;
        }
        if (next.dueAt !== null) this.schedule(next.dueAt - now());
        break;
      }
    } while (this.again);
  }

  private async runJob(job: PublishJob): Promise<void> {
    const { hook, mode, now, sleep } = this.settings;
    log.info('publishing', { job: job.id, mode, reason: job.reason });
    if (hook) {
      try {
        const site = currentSiteUrl();
        const attempts = await deliverWebhook(this.db, job, hook, sleep);
        await succeed(this.db, job, { now: now(), attempts });
        await recordHookSite(this.db, site);
      } catch (err) {
        await fail(this.db, job, { now: now(), error: (err as Error).message, attempts: hook.maxAttempts });
      }
      return;
    }
    try {
      const info = await this.follower.publish(job.id, await snapshotContent(this.db, this.store.snapshots));
      await succeed(this.db, job, { now: now(), releaseId: info.id });
    } catch (err) {
      log.error('publish failed; the previous release stays live', { job: job.id, err });
      await fail(this.db, job, { now: now(), error: (err as Error).message });
    }
  }
}

/**
 * The footer shows the current year: the pages are rebuilt when it turns (a server started in a
 * new year rebuilds anyway: the snapshot carries the year, so last year's release does not match).
 * Answers the call that stops waiting.
 */
function onNewYear(now: () => number, request: (reason: string) => Promise<void>): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    const at = new Date(new Date(now()).getFullYear() + 1, 0, 1).getTime();
    // setTimeout holds at most ~24.8 days: a longer wait is taken in steps.
    timer = setTimeout(
      () => {
        if (now() >= at) void request('new year').catch((err) => log.error('new-year publish request failed', { err }));
        arm();
      },
      Math.min(Math.max(0, at - now()), 2 ** 31 - 1),
    );
    timer.unref();
  };
  arm();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * With a deploy hook: the host's pages carry the site address they were built for (canonical
 * links, sitemap, feed, JSON-LD, the statement's footer). A start with another SITE_URL calls the
 * hook, as a local start renders again (go-live.ts `ensureRelease`).
 */
async function rebuildForNewSite(db: Db, settings: Settings): Promise<void> {
  const built = await hookSite(db);
  const site = currentSiteUrl();
  if (built === undefined || built === site) return;
  log.info('SITE_URL changed since the host last built the pages; calling the deploy hook', { from: built, to: site });
  await enqueue(db, { mode: 'webhook', reason: 'site address changed', now: settings.now() });
}

/** Serves the store's release at start (unless told not to) and starts following other instances' publishes. */
async function startEngine(opts: PublisherOptions, handle: DbHandle, settings: Settings) {
  const { store } = opts;
  const db = handle.db;
  // The embedded database has exactly one process: whatever it left "building" died with it.
  const now = settings.now();
  await recoverStale(db, { before: handle.kind === 'pglite' ? now + 1 : now - STALE_BUILD_MS, now });
  // Read before the start release's content: any newer version is followed once running.
  const startVersion = (await newestVersion(db))?.id ?? 0;
  const startRelease = opts.ensureRelease === false ? undefined : await serveAtStart(store, db, settings);
  if (settings.mode === 'webhook') await rebuildForNewSite(db, settings);
  const follower = await startFollower(store, handle, {
    startVersion,
    buildOpts: settings.buildOpts,
    follow: settings.mode === 'local',
    pollMs: opts.followMs,
  });
  return { startRelease, follower };
}

/** Starts the publisher of `opts.store` (one per store; a second call replaces the first). */
export async function startPublisher(opts: PublisherOptions): Promise<Publisher> {
  const { store } = opts;
  await store.publisher?.stop();
  const handle = await getDbHandle();
  const db = handle.db;
  const settings = settingsOf(opts);
  const { startRelease, follower } = await startEngine(opts, handle, settings);
  const runner = new JobRunner(store, db, settings, follower);
  const poll = settings.pollMs > 0 ? setInterval(() => void runner.tick().catch(() => {}), settings.pollMs) : undefined;
  poll?.unref();

  const publisher: Publisher = {
    mode: settings.mode,
    startRelease,
    async request(reason) {
      if (runner.stopped) return;
      await enqueue(db, { mode: settings.mode, reason, now: settings.now() });
      runner.schedule(settings.debounceMs);
    },
    tick: runner.tick,
    async stop() {
      runner.stopped = true;
      runner.cancel();
      stopNewYear();
      clearInterval(poll);
      if (store.publisher === publisher) store.publisher = undefined;
      await runner.running;
      await follower.stop();
    },
  };
  const stopNewYear = onNewYear(settings.now, (reason) => publisher.request(reason));
  // From here on, every publish request of the store (a save's, release-store.ts) comes here.
  store.publisher = publisher;
  void runner.tick();
  return publisher;
}
