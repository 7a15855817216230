/**
 * The build `npm run build` and `npm start` run: the server bundle (dist/server, with its client
 * files in dist/client and their brotli and gzip copies). The bundle is the whole server, as
 * JavaScript: `npm start` loads it and calls its `main` (src/server/main.ts), so production
 * runs no TypeScript transpiler. The build opens no database and renders no page: the running
 * server renders the pages from the database into a release of its own (src/server/publish).
 */
import { spawn, type StdioOptions } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '#server/paths.ts';
import { precompress } from '#server/publish/release-files.ts';
import { bundleIsCurrent, sourceStamp, stampFile } from './stamp.mjs';

export { bundleIsCurrent, sourceStamp };

/** How many of a log's last lines a failure quotes. */
const FAILURE_TAIL = 20;

/**
 * Runs a command with its output (standard output and error) in `logFile`, made afresh, instead of
 * the console. A failure's message quotes the log's last lines and says where the rest is.
 */
export async function runLogged(command: string, args: string[], opts: Run & { logFile: string }): Promise<void> {
  await fs.mkdir(path.dirname(opts.logFile), { recursive: true });
  const fd = openSync(opts.logFile, 'w');
  try {
    await runChild(command, args, { ...opts, stdio: ['ignore', fd, fd] });
  } catch (err) {
    const lines = (await fs.readFile(opts.logFile, 'utf8')).trimEnd().split('\n').slice(-FAILURE_TAIL);
    throw new Error(`${(err as Error).message}; the last lines of ${opts.logFile}:\n${lines.join('\n')}`, { cause: err });
  } finally {
    closeSync(fd);
  }
}

/** Options of a command run by the build; `name` is what a failure calls it (`astro build`). */
interface Run {
  name: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

function runChild(command: string, args: string[], opts: Run & { stdio: StdioOptions }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, opts);
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${opts.name} exited with ${code}`))));
  });
}

/**
 * Builds the server bundle. With `logFile`, the build's detail (Vite's
 * chunk list, its warnings) goes to that file instead of the console.
 */
export async function buildServer(opts: { logFile?: string } = {}): Promise<void> {
  const root = projectRoot();
  const stamp = await sourceStamp(root);
  const command = process.execPath;
  const args = [path.join(root, 'node_modules', 'astro', 'astro.js'), 'build'];
  const run = { name: 'astro build', cwd: root, env: { ...process.env, PRERENDER_PAGES: 'false', ASTRO_TELEMETRY_DISABLED: '1' } };
  if (opts.logFile) await runLogged(command, args, { ...run, logFile: opts.logFile });
  else await runChild(command, args, { ...run, stdio: 'inherit' });
  // Compressed once here: every release links these copies in with the files (render.ts).
  await precompress(path.join(root, 'dist', 'client'));
  // Taken before the build: a source edited during it makes the next start build again.
  await fs.writeFile(stampFile(root), `${stamp}\n`);
}
