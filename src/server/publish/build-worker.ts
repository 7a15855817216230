/**
 * The warm build worker: a long-lived child of the server that runs Astro's programmatic `build()`
 * once per request. A warm build reuses the loaded compiler, Vite and config (1.4–3.7 s here against
 * 5–6 s for a cold `astro build`: STACK.md gotcha 11) and keeps all that CPU work off the server's
 * event loop. It reads the content only from the snapshot file it is given (STACK.md gotcha 12).
 *
 * Protocol (IPC): parent → `{ type: 'build', id, outDir, snapshot }`; child → `{ type: 'ready' }`
 * once, then `{ type: 'done', id, ms }` or `{ type: 'failed', id, message }` per build.
 */
import { performance } from 'node:perf_hooks';

export type WorkerRequest = { type: 'build'; id: string; outDir: string; snapshot: string };
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'done'; id: string; ms: number; rss: number }
  | { type: 'failed'; id: string; message: string; rss: number };

function send(msg: WorkerReply): void {
  process.send?.(msg);
}

async function main(): Promise<void> {
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  const { build } = await import('astro');
  const root = process.env.APP_ROOT || process.cwd();
  let queue = Promise.resolve();

  process.on('message', (msg: WorkerRequest) => {
    if (msg?.type !== 'build') return;
    queue = queue.then(async () => {
      const started = performance.now();
      // Pages read the snapshot named here (loadSiteContent); each build imports fresh page chunks
      // from its own outDir, so nothing of the previous build's content is reused.
      process.env.CONTENT_SNAPSHOT = msg.snapshot;
      try {
        await build({ root, outDir: msg.outDir, logLevel: 'error', mode: 'production' });
        send({ type: 'done', id: msg.id, ms: Math.round(performance.now() - started), rss: process.memoryUsage().rss });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        send({ type: 'failed', id: msg.id, message, rss: process.memoryUsage().rss });
      }
    });
  });
  // The server owns this process: when it goes, so does the worker.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready' });
}

main().catch((err: Error) => {
  console.error(`build worker failed to start: ${err.message}`);
  process.exit(1);
});
