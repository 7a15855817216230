/**
 * The checks `npm test` runs first: lint, format, types and unused code (`npm run validate`).
 * They depend on nothing but the files, so once they passed on a set of files they are not run
 * again on exactly the same files (the installed packages included): a second `npm test` on an
 * unchanged tree, as CI runs one per database, goes straight to the build. `npm run validate`
 * always runs them; so does this script with `--force`.
 */
import { execFileSync, spawn } from 'node:child_process';
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

/**
 * The checks of `npm run validate`, all started at once: each is mostly one thread, so on two cores
 * together they take about two thirds of the time they take one after another. A failed check's
 * output is printed whole when it ends.
 */
const CHECKS = ['lint', 'format:check', 'typecheck', 'knip', 'cycles'];

function runCheck(script: string): Promise<{ script: string; ok: boolean; output: string; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ script, ok: code === 0, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const results = await Promise.all(
  CHECKS.map((script) =>
    runCheck(script).then((r) => {
      console.log(`${r.ok ? 'passed' : 'FAILED'}: ${r.script} (${r.seconds.toFixed(1)} s)`);
      if (!r.ok) process.stdout.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`);
      return r;
    }),
  ),
);
if (results.some((r) => !r.ok)) process.exit(1);
// Stamped only if nothing changed while the checks ran.
if (before && treeHash() === before) {
  fs.mkdirSync(path.dirname(stampFile), { recursive: true });
  fs.writeFileSync(stampFile, `${before}\n`);
}
