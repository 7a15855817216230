/**
 * The build step of `npm start`: checks the environment and the port (so a busy port is said
 * before half a minute of building), then builds the server bundle when it is missing or older
 * than the sources. scripts/start.mjs runs it as `--build-only` in a process of its own, which has
 * ended before the serving process loads the bundle; run without the flag, it goes on to serve as
 * `npm start` does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '#server/paths.ts';
import { preflight } from '#server/preflight.ts';
import { buildServer, bundleIsCurrent } from './bundle';

async function build(): Promise<void> {
  await preflight();
  if (!fs.existsSync(path.join(projectRoot(), 'dist', 'server', 'entry.mjs'))) {
    console.log('  No server bundle yet: building it (once, about half a minute)…');
    await buildServer();
  } else if (!(await bundleIsCurrent())) {
    console.log('  The sources or the lock file changed since the last build: rebuilding the server bundle…');
    await buildServer();
  }
}

if (process.argv.includes('--build-only')) {
  try {
    await build();
  } catch (err) {
    console.error(`Error: ${(err as Error).message}`);
    process.exit(1);
  }
} else {
  await import('./start.mjs');
}
