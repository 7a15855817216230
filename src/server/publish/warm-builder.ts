import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { log } from '../log';
import { projectRoot } from '../paths';
import type { WorkerReply } from './build-worker';
import { coldBuild, releasesDir, type Builder } from './releases';

export interface WarmBuilderOptions {
  /** Recycle the worker after this many builds (Node keeps every imported page chunk). */
  maxBuilds?: number;
  /** …or once its resident memory passes this. */
  maxRssBytes?: number;
  /** A build taking longer than this kills the worker and fails. */
  timeoutMs?: number;
}

type BuildReply = Exclude<WorkerReply, { type: 'ready' }>;

function throwIfFailed(reply: BuildReply): void {
  if (reply.type === 'failed') throw new Error(`astro build failed: ${reply.message}`);
}

/** A build the worker could not finish because it died: the cold build takes over. */
class WorkerGone extends Error {}

/**
 * Keeps one warm build worker (build-worker.ts) and builds through it. When the worker cannot
 * start or dies mid-build, that build falls back to a cold `astro build` and a fresh worker is
 * started for the next one. A build that fails on its own merits (a page threw) is not retried.
 */
export class WarmBuilder {
  private child: ChildProcess | undefined;
  private ready: Promise<ChildProcess> | undefined;
  private builds = 0;
  private seq = 0;
  /** The content of the last build, for the warm-up of a recycled worker. */
  private lastSnapshot: string | undefined;
  private stopped = false;
  private readonly opts: Required<WarmBuilderOptions>;

  constructor(opts: WarmBuilderOptions = {}) {
    this.opts = { maxBuilds: 40, maxRssBytes: 1.5 * 1024 ** 3, timeoutMs: 180_000, ...opts };
  }

  /** The worker's PID (benchmarks read its memory), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the worker now, so that the first build is already warm-ish. */
  start(): Promise<ChildProcess> {
    if (this.stopped) return Promise.reject(new WorkerGone('the build worker is stopped'));
    this.ready ??= new Promise<ChildProcess>((resolve, reject) => {
      const child = fork(path.join(projectRoot(), 'src', 'server', 'publish', 'build-worker.ts'), [], {
        cwd: projectRoot(),
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      this.child = child;
      this.builds = 0;
      const onMessage = (msg: WorkerReply) => {
        if (msg.type !== 'ready') return;
        child.off('message', onMessage);
        resolve(child);
      };
      child.on('message', onMessage);
      child.once('error', (err) => reject(new WorkerGone(`build worker failed: ${err.message}`)));
      child.once('exit', (code, signal) => {
        if (this.child === child) {
          this.child = undefined;
          this.ready = undefined;
        }
        reject(new WorkerGone(`build worker exited (${signal ?? code})`));
      });
    });
    this.ready.catch(() => {});
    return this.ready;
  }

  /** The `Builder` to hand to `buildRelease`. */
  readonly build: Builder = async (outDir, snapshotFile) => {
    this.lastSnapshot = snapshotFile;
    try {
      const reply = await this.buildWarm(outDir, snapshotFile);
      // Real builds only: a warm-up after a recycle must not count towards the next one.
      if (++this.builds >= this.opts.maxBuilds || reply.rss > this.opts.maxRssBytes) this.recycle();
      throwIfFailed(reply);
    } catch (err) {
      if (!(err instanceof WorkerGone) || this.stopped) throw err;
      log.warn('warm build worker unavailable; building cold', { reason: err.message });
      await coldBuild(outDir, snapshotFile);
    }
  };

  /** One build in the worker; answers its reply (a failed build is a reply, not a rejection). */
  private async buildWarm(outDir: string, snapshot: string): Promise<BuildReply> {
    const child = await this.start();
    const id = String(++this.seq);
    const reply = await new Promise<BuildReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        done();
        child.kill('SIGKILL');
        reject(new Error(`build timed out after ${Math.round(this.opts.timeoutMs / 1000)} s`));
      }, this.opts.timeoutMs);
      const onMessage = (msg: WorkerReply) => {
        if (msg.type === 'ready' || msg.id !== id) return;
        done();
        resolve(msg);
      };
      const onExit = (code: number | null, signal: string | null) => {
        done();
        reject(new WorkerGone(`build worker exited during a build (${signal ?? code})`));
      };
      const done = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ type: 'build', id, outDir, snapshot });
    });
    return reply;
  }

  /** Replaces the worker with a fresh one, started in the background. */
  private recycle(): void {
    const old = this.child;
    this.child = undefined;
    this.ready = undefined;
    old?.disconnect();
    if (this.stopped) return;
    // Its first build bundles everything again (build-memo.ts): make it now, not on the next publish.
    if (!this.lastSnapshot) return;
    void fs.readFile(this.lastSnapshot, 'utf8').then(
      (content) => this.warmUp(content, 1),
      () => {},
    );
  }

  /**
   * Builds of `content` thrown away, so that the next real build is fast: the worker's first
   * build bundles, later ones only render (build-memo.ts). Never rejects; logs when done.
   */
  async warmUp(content: string, builds: number): Promise<void> {
    const dir = path.join(releasesDir(), `warmup-${process.pid}-${++this.seq}`);
    const snapshot = `${dir}.content.json`;
    try {
      await fs.writeFile(snapshot, content);
      for (let i = 0; i < builds; i++) {
        throwIfFailed(await this.buildWarm(dir, snapshot));
        await fs.rm(dir, { recursive: true, force: true });
      }
      log.info('build worker warm');
    } catch (err) {
      log.debug('warm-up build failed', { err });
    } finally {
      await Promise.all([fs.rm(dir, { recursive: true, force: true }), fs.rm(snapshot, { force: true })]);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const child = this.child;
    this.child = undefined;
    this.ready = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}
