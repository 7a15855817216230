// Sums the JSON reports of every vitest and Playwright run in a directory.
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
  if (!name.endsWith('.json')) continue;
  const data = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  if (name.includes('playwright')) {
    passed += (data.stats?.expected ?? 0) + (data.stats?.flaky ?? 0);
    failed += data.stats?.unexpected ?? 0;
    // Errors outside tests (web server failed to start, etc.).
    failed += (data.errors ?? []).length;
  } else {
    passed += data.numPassedTests ?? 0;
    failed += (data.numFailedTests ?? 0) + (data.numRuntimeErrorTestSuites ?? 0);
  }
}
console.log(JSON.stringify({ passed, failed }));
