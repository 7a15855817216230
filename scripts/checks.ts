/**
 * The checks `npm test` runs first: lint, format, types and unused code (`npm run validate`).
 * They depend on nothing but the files, so once they passed on a set of files they are not run
 * again on exactly the same files (the installed packages included): a second `npm test` on an
 * unchanged tree, as CI runs one per database, goes straight to the build. `npm run validate`
 * always runs them; so does this script with `--force`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '#server/paths.ts';

const root = projectRoot();
const stampFile = path.join(root, 'node_modules', '.cache', 'checks-passed.txt');

/** A hash of every file git would see (tracked or new, not ignored) and of the installed packages; undefined without git. */
function treeHash(): string | undefined {
  let listed: string;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  } catch {
    return undefined;
  }
  const files = [...new Set(listed.split('\0').filter(Boolean))].sort();
  const hash = createHash('sha256');
  for (const file of [...files, 'node_modules/.package-lock.json']) {
    const full = path.join(root, file);
    // A file deleted but not yet staged is listed by git and absent: its absence is hashed.
    const content = fs.existsSync(full) ? fs.readFileSync(full) : Buffer.from('(absent)');
    hash.update(file).update('\0').update(content).update('\0');
  }
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
const before = treeHash();
const passed = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : '';
if (!force && before && passed === before) {
  console.log('Checks (lint, format, types, unused code) already passed on exactly these files; not run again.');
  process.exit(0);
}

const run = spawnSync('npm', ['run', 'validate'], { cwd: root, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
// Stamped only if nothing changed while the checks ran.
if (before && treeHash() === before) {
  fs.mkdirSync(path.dirname(stampFile), { recursive: true });
  fs.writeFileSync(stampFile, `${before}\n`);
}
