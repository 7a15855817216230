/**
 * What `npm start` tells a person while it starts: one line per phase (build, database, pages)
 * with the time it took, printed when the phase ends. Plain JavaScript, because scripts/start.mjs
 * prints the build's line before anything is compiled.
 */
import path from 'node:path';

/**
 * `0.4 s`, `12.3 s`, `1 min 14 s`.
 * @param {number} ms
 */
export function formatDuration(ms) {
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * `  Database     8.1 s   pglite: …`: the phase, its time, what it did.
 * @param {string} name
 * @param {number} ms
 * @param {string} what
 */
function phaseLine(name, ms, what) {
  return `  ${name.padEnd(9)}${formatDuration(ms).padStart(10)}   ${what}`;
}

/**
 * The build's line when there was nothing to build (the stamp check took `since` until now).
 * @param {number} since `performance.now()` before the check
 */
export function printBuildUpToDate(since) {
  console.log(phaseLine('Build', performance.now() - since, 'up to date (built from these sources)'));
}

/**
 * @typedef {object} PhaseOptions
 * @property {string} [doing] On a terminal, said while the phase runs (then replaced by its line).
 * @property {NodeJS.WriteStream} [out] Where the line goes (standard output).
 */

/**
 * Runs one phase, then prints its line. A phase that fails prints its line ending in "failed" and
 * passes the error on.
 * @template T
 * @param {string} name
 * @param {() => Promise<T>} work
 * @param {(result: T) => string} what
 * @param {PhaseOptions} [options]
 * @returns {Promise<T>}
 */
export async function phase(name, work, what, { doing, out = process.stdout } = {}) {
  const live = Boolean(doing && out.isTTY);
  if (live) out.write(`  ${name.padEnd(9)}${'…'.padStart(10)}   ${doing}`);
  const started = performance.now();
  /** @param {string} text */
  const finish = (text) => out.write(`${live ? '\r\x1b[K' : ''}${phaseLine(name, performance.now() - started, text)}\n`);
  let result;
  try {
    result = await work();
  } catch (err) {
    finish('failed');
    throw err;
  }
  finish(what(result));
  return result;
}

/**
 * A file as a person would type it: relative to the working directory when it is under it.
 * @param {string} file
 */
export function shownPath(file) {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
