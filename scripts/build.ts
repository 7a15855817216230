/**
 * `npm run build`: builds the server bundle (dist/server) and its client files (dist/client, with
 * their brotli and gzip copies). It
 * opens no database and renders no page: the running server renders the pages from the database
 * into a release of its own (src/server/publish).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '#server/paths.ts';
import { precompress } from '#server/web/static-site.ts';

/** What the server bundle is built from: a change to any of these makes `npm start` rebuild. */
const STAMPED = ['src', 'public', 'astro.config.mjs', 'tsconfig.json', 'package.json', 'package-lock.json'];

async function* filesUnder(target: string): AsyncGenerator<string> {
  const stat = await fs.stat(target).catch(() => undefined);
  if (!stat) return;
  if (!stat.isDirectory()) return yield target;
  const entries = (await fs.readdir(target, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) yield* filesUnder(path.join(target, entry.name));
}

/** A hash of every file the bundle is built from (names and contents). */
export async function sourceStamp(root = projectRoot()): Promise<string> {
  const hash = createHash('sha256');
  for (const top of STAMPED) {
    for await (const file of filesUnder(path.join(root, top))) {
      hash
        .update(path.relative(root, file))
        .update('\0')
        .update(await fs.readFile(file))
        .update('\0');
    }
  }
  return hash.digest('hex');
}

const stampFile = (root: string) => path.join(root, 'dist', 'server', 'build-stamp.txt');

/** Whether dist/server was built from the sources as they are now. */
export async function bundleIsCurrent(root = projectRoot()): Promise<boolean> {
  const built = await fs.readFile(stampFile(root), 'utf8').catch(() => '');
  return built.trim() === (await sourceStamp(root));
}

export async function buildServer(): Promise<void> {
  const root = projectRoot();
  const stamp = await sourceStamp(root);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules', 'astro', 'astro.js'), 'build'], {
      cwd: root,
      env: { ...process.env, PRERENDER_PAGES: 'false', ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`astro build exited with ${code}`))));
  });
  // Compressed once here: every release links these copies in with the files (render.ts).
  await precompress(path.join(root, 'dist', 'client'));
  // Taken before the build: a source edited during it makes the next start build again.
  await fs.writeFile(stampFile(root), `${stamp}\n`);
}

/** `--if-stale` (as `npm test` runs it): builds only when the bundle's stamp is not the sources' own. */
async function main(): Promise<void> {
  if (process.argv.includes('--if-stale') && (await bundleIsCurrent())) {
    console.log('The server bundle was built from these exact sources; not built again.');
    return;
  }
  await buildServer();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: Error) => {
    console.error(`Error: ${err.message}`);
    process.exit(1);
  });
}
