/**
 * `npm start`: serves with the server bundle (dist/server/entry.mjs), whose `main` opens the
 * database, publishes and serves; the bundle is the process's only copy of the server code, and
 * it is JavaScript only: no TypeScript transpiler, no esbuild service. When the build is missing
 * or older than the sources (the stamp, scripts/stamp.mjs), `scripts/start.ts --build-only` checks
 * the environment and the port, and builds (its line says why, and where the build's detail
 * went), in a process of its own that has ended before this one serves. A current build gets its
 * line here.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printBuildUpToDate } from '../src/server/phases.mjs';
import { bundleIsCurrent, projectRoot } from './stamp.mjs';

const root = projectRoot();
const entry = path.join(root, 'dist', 'server', 'entry.mjs');
const checking = performance.now();
if (fs.existsSync(entry) && (await bundleIsCurrent(root))) {
  printBuildUpToDate(checking);
} else {
  // Its own line says what it built and where the build's detail went.
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'start.ts');
  const build = spawnSync(process.execPath, ['--import', 'tsx', script, '--build-only'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
/** @type {import('../src/server/astro-entry.ts').ServerBundle} */
const bundle = await import(pathToFileURL(entry).href);
await bundle.main();
