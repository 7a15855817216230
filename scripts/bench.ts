/**
 * `npm run bench`: runs every benchmark module in scripts/bench/ (each exports `run()` and prints
 * its own table) and writes the figures to bench-results/. A benchmark, not a test: it reports.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = path.join(import.meta.dirname, 'bench');
const only = process.argv.slice(2);
const modules = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .sort()
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)));

fs.mkdirSync('bench-results', { recursive: true });
for (const file of modules) {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { run?: () => Promise<unknown> };
  if (!mod.run) continue;
  console.log(`\n=== ${file.replace(/\.ts$/, '')} ===`);
  const result = await mod.run();
  fs.writeFileSync(path.join('bench-results', file.replace(/\.ts$/, '.json')), JSON.stringify(result, null, 2));
}
