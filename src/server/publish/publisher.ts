import { contentChanged } from '../content/generation';
import { snapshotContent, type SiteContent } from '../content/site-content';
import { getDb, getDbHandle } from '../db/client';
import type { PublishJob } from '../db/schema';
import { env } from '../env';
import { log } from '../log';
import { ensureRelease } from '../web/live-site';
import { newestVersion } from './fleet';
import { startFollower } from './follower';
import { claim, enqueue, fail, recordCompleted, recoverStale, STALE_BUILD_MS, succeed, type PublishMode } from './jobs';
import type { Builder } from './releases';
import { deliverWebhook, WEBHOOK_DEFAULTS, type WebhookConfig } from './webhook';

/*
 * Publishing. Every write that changes a public page calls `requestPublish`. The publisher that
 * the server starts (web/main.ts) records the request as a publish job in the database and
 * runs due jobs one at a time: the pages rendered by the server bundle in this process (render.ts),
 * checked and swapped in atomically, or a call of the deploy hook (REBUILD_WEBHOOK_URL). Without a started publisher (the
 * integration tests of other features) a request is only logged: nothing builds.
 */

export interface PublisherOptions {
  /** Wait after the first write of a batch so writes close together share one build. */
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
  /** The files a release must contain (routes.ts by default). */
  expectedFiles?: (content: SiteContent) => string[];
  /** Serve the current release or build one before answering (default true). */
  ensureRelease?: boolean;
}

export interface Publisher {
  mode: PublishMode;
  /** Records a publish request (coalescing) and wakes the runner. */
  request(reason: string): Promise<void>;
  /** Runs every due job now; resolves when the runner is idle again. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/** This process's publisher, once started. */
let current: Publisher | undefined;

/**
 * Asks for a publish after a write that changes a public page. Resolves once the request is
 * recorded (awaiting it is optional; it never rejects).
 */
export function requestPublish(reason: string): Promise<void> {
  // The write is done: answers kept for visitors (web/public-api-cache.ts) are made again.
  contentChanged();
  const publisher = current;
  if (!publisher) {
    log.debug('publish requested (no publisher running)', { reason });
    return Promise.resolve();
  }
  return publisher.request(reason).catch((err) => log.error('recording a publish request failed', { reason, err }));
}

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
  const debounceMs = opts.debounceMs ?? 100;
  const pollMs = opts.pollMs ?? 2000;
  const sleep = opts.sleep ?? realSleep;
  const hook: WebhookConfig | null =
    opts.webhook === undefined
      ? webhookFromEnv()
      : opts.webhook && { ...WEBHOOK_DEFAULTS, secretHeader: 'x-webhook-secret', ...opts.webhook };
  const mode: PublishMode = hook ? 'webhook' : 'local';
  const buildOpts = { builder: opts.builder, expectedFiles: opts.expectedFiles };

  // The embedded database has exactly one process: whatever it left "building" died with it.
  await recoverStale(db, { before: handle.kind === 'pglite' ? now() + 1 : now() - STALE_BUILD_MS, now: now() });

  // Read before the start release's content: any newer version is followed once running.
  const startVersion = (await newestVersion(db))?.id ?? 0;
  if (opts.ensureRelease !== false) {
    const started = now();
    const { info, built, error } = await ensureRelease(db, buildOpts);
    const finished = { mode: 'local' as const, reason: 'start', startedAt: started, finishedAt: now() };
    if (built) await recordCompleted(db, { ...finished, status: 'succeeded', releaseId: info.id });
    else if (error) await recordCompleted(db, { ...finished, status: 'failed', error: error.message });
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

  current = publisher;
  void tick();
  return publisher;
}
