// Sums the JSON reports of every vitest and Playwright run in a directory; with --list, prints
// instead the name of every test that failed (with its report) and the first lines of its error,
// where it failed (the tail of a CI log is often all that is read); with --attacks, the
// attack cases (a title, or a title it is under, tagged [SECURITY]) of each run, passed and failed;
// with --slowest, the 15 slowest files of each report, with seconds (where the next minute is);
// with --suites, each run's suites with their seconds (the `*suites.json` scripts/test-suites.ts writes).
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
const list = process.argv.includes('--list');
const attacks = process.argv.includes('--attacks');
const slowest = process.argv.includes('--slowest');
const suites = process.argv.includes('--suites');
/** Seconds per test file, by report: [report name, [[file, seconds], …]]. */
const fileTimes = [];
let passed = 0;
let failed = 0;
const names = [];
/** Attack cases by run (the report's prefix, such as `pglite-`): { passed, failed }. */
const attackTally = new Map();
function countAttack(report, title, ok) {
  if (!title.includes('[SECURITY]')) return;
  const run = report.replace(/(vitest|playwright).*$/, '').replace(/-$/, '') || 'run';
  const t = attackTally.get(run) ?? { passed: 0, failed: 0 };
  t[ok ? 'passed' : 'failed'] += 1;
  attackTally.set(run, t);
}

/** The first lines of an error message, without terminal colours, indented under its test. */
function excerpt(message) {
  const lines = String(message ?? '')
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .slice(0, 6);
  return lines.map((l) => `\n      ${l.slice(0, 200)}`).join('');
}

/** Every Playwright test in a suite tree, with its title path. */
function* playwrightTests(suite, titles = []) {
  const here = suite.title ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) yield { title: [...here, spec.title].join(' › '), test };
  }
  for (const child of suite.suites ?? []) yield* playwrightTests(child, here);
}

/** Each run's suites (`pglite-suites.json`: [{ suite, ok, seconds }]), by run. */
const suiteTimes = [];
for (const name of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) {
  if (!name.endsWith('.json')) continue;
  const data = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  if (name.endsWith('suites.json')) {
    suiteTimes.push([name.replace(/-?suites\.json$/, '') || 'run', data]);
    continue;
  }
  if (name.includes('playwright')) {
    const perFile = new Map();
    for (const suite of data.suites ?? []) {
      let ms = 0;
      for (const { test } of playwrightTests(suite)) for (const r of test.results ?? []) ms += r.duration ?? 0;
      perFile.set(suite.file ?? suite.title, (perFile.get(suite.file ?? suite.title) ?? 0) + ms / 1000);
    }
    fileTimes.push([name, [...perFile]]);
    passed += (data.stats?.expected ?? 0) + (data.stats?.flaky ?? 0);
    failed += data.stats?.unexpected ?? 0;
    // Errors outside tests (web server failed to start, etc.).
    failed += (data.errors ?? []).length;
    for (const suite of data.suites ?? []) {
      for (const { title, test } of playwrightTests(suite)) {
        if (test.status === 'unexpected') {
          const result = test.results?.at(-1);
          const at = result?.error?.location;
          const where = at ? `\n      at ${path.basename(at.file)}:${at.line}` : '';
          names.push(`${name}: ${title}${where}${excerpt(result?.error?.message)}`);
        }
        if (test.status !== 'skipped') countAttack(name, title, test.status === 'expected' || test.status === 'flaky');
      }
    }
    for (const error of data.errors ?? []) names.push(`${name}: ${String(error.message ?? '').split('\n')[0]}`);
  } else {
    fileTimes.push([
      name,
      (data.testResults ?? []).map((f) => [path.relative(process.cwd(), f.name), ((f.endTime ?? 0) - (f.startTime ?? 0)) / 1000]),
    ]);
    passed += data.numPassedTests ?? 0;
    failed += (data.numFailedTests ?? 0) + (data.numRuntimeErrorTestSuites ?? 0);
    for (const file of data.testResults ?? []) {
      for (const t of file.assertionResults ?? []) {
        if (t.status === 'passed' || t.status === 'failed') countAttack(name, t.fullName ?? '', t.status === 'passed');
      }
      const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failedTests) {
        names.push(`${name}: ${path.relative(process.cwd(), file.name)} › ${t.fullName}${excerpt(t.failureMessages?.[0])}`);
      }
      if (file.status === 'failed' && failedTests.length === 0) {
        names.push(`${name}: ${path.relative(process.cwd(), file.name)} (${String(file.message ?? '').split('\n')[0]})`);
      }
    }
  }
}
if (suites) {
  for (const [run, list] of suiteTimes) {
    console.log(`suites (${run}): ${list.map((r) => `${r.suite} ${r.seconds} s${r.ok ? '' : ' FAILED'}`).join(', ')}`);
  }
} else if (slowest) {
  for (const [report, files] of fileTimes) {
    const top = files.sort((a, b) => b[1] - a[1]).slice(0, 15);
    const total = files.reduce((sum, [, s]) => sum + s, 0);
    console.log(`slowest files of ${report.replace(/\.json$/, '')} (${files.length} files, ${total.toFixed(0)} s in all):`);
    for (const [file, seconds] of top) console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${file}`);
  }
} else if (attacks) {
  for (const [run, t] of attackTally) console.log(`attack cases (${run}): ${t.passed} passed, ${t.failed} failed`);
} else if (list) {
  if (names.length > 0) console.log(`Failed:\n${names.map((n) => `  ${n}`).join('\n')}`);
} else {
  console.log(JSON.stringify({ passed, failed }));
}
