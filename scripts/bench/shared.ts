import fs from 'node:fs';
import path from 'node:path';

/** Helpers the benchmark modules share (bench.ts skips this module: it has no `run`). */

/** The middle value (the lower one of the two middle values for an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/**
 * The node arguments of `npm start` (package.json), so that a benchmark measures the server as it
 * really runs, V8 flags included: `node <args…>` becomes `[process.execPath, [args…]]`.
 */
export function startCommand(root = process.cwd()): [string, string[]] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [bin, ...args] = pkg.scripts.start.split(/\s+/);
  if (bin !== 'node') throw new Error(`npm start must run node directly, not ${bin}`);
  return [process.execPath, args.map((a) => (a.endsWith('.ts') ? path.join(root, a) : a))];
}
