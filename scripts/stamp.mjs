/**
 * The build stamp: a hash of every file the server bundle is built from. Plain JavaScript,
 * because `npm start` (scripts/start.mjs) reads it before anything is compiled.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** What the build is made from: a change to any of these makes `npm start` rebuild. */
const STAMPED = ['src', 'public', 'scripts', 'astro.config.mjs', 'tsconfig.json', 'package.json', 'package-lock.json'];

/** The project root: APP_ROOT, or the working directory (as src/server/paths.ts). */
export function projectRoot() {
  return process.env.APP_ROOT ? path.resolve(process.env.APP_ROOT) : process.cwd();
}

/** @param {string} target @returns {AsyncGenerator<string>} */
async function* filesUnder(target) {
  const stat = await fs.stat(target).catch(() => undefined);
  if (!stat) return;
  if (!stat.isDirectory()) return yield target;
  const entries = (await fs.readdir(target, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) yield* filesUnder(path.join(target, entry.name));
}

/**
 * A hash of every file the build is made from (names and contents).
 * @param {string} [root]
 * @returns {Promise<string>}
 */
export async function sourceStamp(root = projectRoot()) {
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

/** @param {string} root */
export const stampFile = (root) => path.join(root, 'dist', 'server', 'build-stamp.txt');

/**
 * Whether dist/server was built from the sources as they are now.
 * @param {string} [root]
 * @returns {Promise<boolean>}
 */
export async function bundleIsCurrent(root = projectRoot()) {
  const built = await fs.readFile(stampFile(root), 'utf8').catch(() => '');
  return built.trim() === (await sourceStamp(root));
}
