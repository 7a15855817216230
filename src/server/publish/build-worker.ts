/**
 * The warm build worker: a long-lived child of the server that runs Astro's programmatic `build()`
 * once per request. Its first build bundles only what content can change (content-build.ts); every
 * later one reuses those bundles and only generates the pages (build-memo.ts): about 0.5–1 s here
 * against 8–10 s for a cold `astro build` of the whole project. It keeps all that CPU work off the
 * server's event loop. It reads the content only from the snapshot file it is given (the embedded database belongs to the server process alone).
 *
 * Protocol (IPC): parent → `{ type: 'build', id, outDir, snapshot }`; child → `{ type: 'ready' }`
 * once, then `{ type: 'done', id, ms }` or `{ type: 'failed', id, message }` per build.
 */
import fs from 'node:fs';
import { register } from 'node:module';
import { performance } from 'node:perf_hooks';
import { installBuildMemo } from './build-memo';
import { contentBuildPlugin } from './content-build';
import { buildCacheDir } from './releases';

export type WorkerRequest = { type: 'build'; id: string; outDir: string; snapshot: string };
export type WorkerReply =
  { type: 'ready' } | { type: 'done'; id: string; ms: number; rss: number } | { type: 'failed'; id: string; message: string; rss: number };

function send(msg: WorkerReply): void {
  process.send?.(msg);
}

async function main(): Promise<void> {
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  // Before Astro loads: its bundling step then goes through the memo (build-memo.ts).
  register('./build-memo-hooks.mjs', import.meta.url);
  const cacheDir = buildCacheDir(process.pid);
  process.on('exit', () => fs.rmSync(cacheDir, { recursive: true, force: true }));
  process.on('SIGTERM', () => process.exit(0));
  if (!installBuildMemo(cacheDir)) console.warn("build worker: Astro's bundling step could not be hooked; every build is a full one");
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
        // The public pages only: content-build.ts stubs what content cannot change.
        await build({ root, outDir: msg.outDir, logLevel: 'error', mode: 'production', vite: { plugins: [contentBuildPlugin(root)] } });
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
