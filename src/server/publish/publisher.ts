import { describeChange, onContentChange } from '../content/changes';
import { contentChanged } from '../content/generation';
import { snapshotContent, type SiteContent } from '../content/site-content';
import { getDb, getDbHandle } from '../db/client';
import type { PublishJob } from '../db/schema';
import { env } from '../env';
import { log } from '../log';
import { newestVersion } from './fleet';
import { startFollower } from './follower';
import { ensureRelease } from './go-live';
import { claim, enqueue, fail, recordCompleted, recoverStale, STALE_BUILD_MS, succeed, type PublishMode } from './jobs';
import type { Builder } from './render';
import { deliverWebhook, WEBHOOK_DEFAULTS, type WebhookConfig } from './webhook';

/*
 * Publishing, one way: services record that content changed (content/changes.ts); the publisher
 * that the server starts (main.ts) subscribes, records each change as a publish job in the
 * database and runs due jobs one at a time: the pages rendered by the server bundle in this process
 * (render.ts), checked, and handed to the web layer as a finished release (go-live.ts), or a call
 * of the deploy hook (REBUILD_WEBHOOK_URL). Without a started publisher (the integration tests of
 * other features) a change is only logged: nothing builds.
 */

export interface PublisherOptions {
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

/** This process's publisher, once started. */
let current: Publisher | undefined;

/** POST /api/admin/publish: queue a publish even when this process runs no publisher. */
export async function publishNow(reason: string): Promise<void> {
  contentChanged();
  const publisher = current;
  if (publisher) return publisher.request(reason);
  await enqueue(await getDb(), { mode: webhookFromEnv() ? 'webhook' : 'local', reason, now: Date.now() });
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

/** Starts this process's publisher (one per process; a second call replaces the first). */
export async function startPublisher(opts: PublisherOptions = {}): Promise<Publisher> {
  await current?.stop();
  const handle = await getDbHandle();
  const db = handle.db;
  const now = opts.now ?? Date.now;
  const pollMs = opts.pollMs ?? 2000;
  const sleep = opts.sleep ?? realSleep;
  const hook: WebhookConfig | null =
    opts.webhook === undefined
      ? webhookFromEnv()
      : opts.webhook && { ...WEBHOOK_DEFAULTS, secretHeader: 'x-webhook-secret', ...opts.webhook };
  const mode: PublishMode = hook ? 'webhook' : 'local';
  // A local publish of an edit takes a fraction of a second, and edits during one share the next:
  // a short wait. Each call of a deploy hook starts a whole build elsewhere: a longer one.
  const debounceMs = opts.debounceMs ?? (hook ? 100 : 30);
  const buildOpts = { builder: opts.builder, expectedFiles: opts.expectedFiles };

  // The embedded database has exactly one process: whatever it left "building" died with it.
  await recoverStale(db, { before: handle.kind === 'pglite' ? now() + 1 : now() - STALE_BUILD_MS, now: now() });

  // Read before the start release's content: any newer version is followed once running.
  const startVersion = (await newestVersion(db))?.id ?? 0;
  let startRelease: StartRelease | undefined;
  if (opts.ensureRelease !== false) {
    const started = now();
    const { info, built, error } = await ensureRelease(db, buildOpts);
    const finished = { mode: 'local' as const, reason: 'start', startedAt: started, finishedAt: now() };
    if (built) await recordCompleted(db, { ...finished, status: 'succeeded', releaseId: info.id });
    else if (error) await recordCompleted(db, { ...finished, status: 'failed', error: error.message });
    startRelease = { id: info.id, pages: info.pages, built, ...(error ? { error: error.message } : {}) };
  }

  const follower = await startFollower(handle, { startVersion, buildOpts, follow: mode === 'local', pollMs: opts.followMs });

  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    const at = now() + Math.max(0, delayMs);
    if (timer && timerAt <= at) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerAt = Infinity;
        void tick();
      },
      Math.max(0, delayMs),
    );
    timer.unref();
  };

  const runJob = async (job: PublishJob) => {
    log.info('publishing', { job: job.id, mode, reason: job.reason });
    if (hook) {
      try {
        const attempts = await deliverWebhook(db, job, hook, sleep);
        await succeed(db, job, { now: now(), attempts });
      } catch (err) {
        await fail(db, job, { now: now(), error: (err as Error).message, attempts: hook.maxAttempts });
      }
      return;
    }
    try {
      const info = await follower.publish(job.id, await snapshotContent(db));
      await succeed(db, job, { now: now(), releaseId: info.id });
    } catch (err) {
      log.error('publish failed; the previous release stays live', { job: job.id, err });
      await fail(db, job, { now: now(), error: (err as Error).message });
    }
  };

  const drain = async () => {
    do {
      again = false;
      for (;;) {
        if (stopped) return;
        const next = await claim(db, { now: now(), debounceMs });
        if ('job' in next) {
          await runJob(next.job);
          continue;
        }
        if (next.dueAt !== null) schedule(next.dueAt - now());
        break;
      }
    } while (again);
  };

  const tick = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((err) => log.error('publisher run failed', { err }))
      .finally(() => (running = undefined));
    return running;
  };

  let newYear: NodeJS.Timeout | undefined;
  const poll = pollMs > 0 ? setInterval(() => void tick().catch(() => {}), pollMs) : undefined;
  poll?.unref();

  const publisher: Publisher = {
    mode,
    startRelease,
    async request(reason) {
      if (stopped) return;
      await enqueue(db, { mode, reason, now: now() });
      schedule(debounceMs);
    },
    tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(newYear);
      clearInterval(poll);
      unsubscribe();
      if (current === publisher) current = undefined;
      await running;
      await follower.stop();
    },
  };
  // The footer shows the current year: the pages are rebuilt when it turns. (A server started in a
  // new year rebuilds anyway: the snapshot carries the year, so last year's release does not match.)
  const armNewYear = () => {
    if (stopped) return;
    const at = new Date(new Date(now()).getFullYear() + 1, 0, 1).getTime();
    // setTimeout holds at most ~24.8 days: a longer wait is taken in steps.
    newYear = setTimeout(
      () => {
        if (now() >= at) void publisher.request('new year').catch((err) => log.error('new-year publish request failed', { err }));
        armNewYear();
      },
      Math.min(Math.max(0, at - now()), 2 ** 31 - 1),
    );
    newYear.unref();
  };
  armNewYear();

  // From here on, every change a service records becomes a publish request.
  const unsubscribe = onContentChange((change) => publisher.request(describeChange(change)));
  current = publisher;
  void tick();
  return publisher;
}
