/**
 * The build step of `npm start`: checks the environment and the port (so a busy port is said
 * before a minute of building), then builds the server bundle when it is missing or older than the
 * sources, printing the build phase's line with its time; the build's detail goes to
 * DATA_DIR/logs/build.log. scripts/start.mjs runs it as `--build-only` in a process of its own,
 * which has ended before the serving process loads the bundle; run without the flag, it goes on
 * to serve as `npm start` does.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Env } from '#server/env.ts';
import { dataDir, projectRoot } from '#server/paths.ts';
import { phase, printBuildUpToDate, shownPath } from '#server/phases.mjs';
import { preflight } from '#server/preflight.ts';
import { buildServer, bundleIsCurrent } from './bundle';

/** Why the server bundle must be built, or `null` when it was built from these sources. */
async function buildReason(entry: string): Promise<string | null> {
  if (!fs.existsSync(entry)) return 'no server bundle yet';
  return (await bundleIsCurrent()) ? null : 'the sources or the lock file changed since the last build';
}

/** The build phase: the build's detail goes to DATA_DIR/logs/build.log, its line says where. */
async function build(e: Env): Promise<void> {
  const checking = performance.now();
  const reason = await buildReason(path.join(projectRoot(), 'dist', 'server', 'entry.mjs'));
  if (!reason) return printBuildUpToDate(checking);
  const logFile = path.join(dataDir(e.DATA_DIR), 'logs', 'build.log');
  await phase(
    'Build',
    () => buildServer({ logFile }),
    () => `server bundle built (${reason}); details in ${shownPath(logFile)}`,
    { doing: `building the server bundle (${reason}), about a minute…` },
  );
}

if (process.argv.includes('--build-only')) {
  try {
    await build(await preflight());
  } catch (err) {
    console.error(`Error: ${(err as Error).message}`);
    process.exit(1);
  }
} else {
  await import('./start.mjs');
}
