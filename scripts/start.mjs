/**
 * `npm start`: serves with the compiled start (dist/server/start.mjs, built from scripts/start.ts
 * with the server bundle), so the serving process runs JavaScript only: no TypeScript transpiler,
 * no esbuild service. When the build is missing or older than the sources (the stamp,
 * scripts/stamp.mjs), `scripts/start.ts --build-only` checks the environment and the port, and
 * builds (its line says why, and where the build's detail went), in a process of its own that has
 * ended before this one serves. A current build gets its line here.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printBuildUpToDate } from './phases.mjs';
import { bundleIsCurrent, projectRoot } from './stamp.mjs';

const root = projectRoot();
const compiled = path.join(root, 'dist', 'server', 'start.mjs');
const checking = performance.now();
if (fs.existsSync(compiled) && (await bundleIsCurrent(root))) {
  printBuildUpToDate(checking);
} else {
  // Its own line says what it built and where the build's detail went.
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'start.ts');
  const build = spawnSync(process.execPath, ['--import', 'tsx', script, '--build-only'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// Tells the compiled start that the build was just checked.
process.env.START_BUILD_CHECKED = '1';
await import(pathToFileURL(compiled).href);
