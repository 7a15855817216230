/**
 * The suites of `npm test`, after the checks and the build, in two lanes side by side:
 *
 * - vitest: unit, then integration, then fault (each stops its lane when it fails), which keep
 *   both cores busy with the server code and the database;
 * - end-to-end: Playwright, which spends most of its time waiting on the browser and the server
 *   (alone it uses under half a core), so beside the vitest lane it adds little to the time.
 *
 * One after another they took the sum of the two; side by side they take about the longer.
 * The end-to-end lane's lines are printed as they come, each after `e2e │ `. Last comes each
 * suite's time and result; with TEST_REPORT_DIR set they are also written to
 * `<TEST_REPORT_PREFIX>suites.json` there, where CI reads them. The exit code is 1 if any suite failed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface SuiteResult {
  suite: string;
  ok: boolean;
  seconds: number;
}

/** Runs `npm run <script>`, its output through `write`; resolves with its result. */
function runScript(script: string, write: (chunk: string) => void): Promise<SuiteResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.setEncoding('utf8').on('data', write);
    child.stderr.setEncoding('utf8').on('data', write);
    child.on('close', (code) =>
      resolve({ suite: script.replace(/^test:/, ''), ok: code === 0, seconds: Math.round((Date.now() - started) / 1000) }),
    );
  });
}

/** Runs the scripts one after another until one fails. */
async function lane(scripts: string[], write: (chunk: string) => void): Promise<SuiteResult[]> {
  const results: SuiteResult[] = [];
  for (const script of scripts) {
    const result = await runScript(script, write);
    results.push(result);
    if (!result.ok) break;
  }
  return results;
}

/** Writes whole lines, each after `prefix`, keeping a partial last line until it is complete. */
export function prefixedLines(prefix: string, out: (text: string) => void): (chunk: string) => void {
  let pending = '';
  return (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop()!;
    if (lines.length > 0) out(lines.map((line) => `${prefix}${line}\n`).join(''));
  };
}

/** The closing lines: each suite's time and result, then the whole. */
export function summary(results: SuiteResult[], seconds: number): string {
  const parts = results.map((r) => `${r.suite} ${r.seconds} s ${r.ok ? 'passed' : 'FAILED'}`);
  return `Suites: ${parts.join(', ')}; ${seconds} s in all (the two lanes side by side).`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  const stdout = (text: string) => void process.stdout.write(text);
  const [vitest, e2e] = await Promise.all([
    lane(['test:unit', 'test:integration', 'test:fault'], stdout),
    lane(['test:e2e'], prefixedLines('e2e │ ', stdout)),
  ]);
  const results = [...vitest, ...e2e];
  const line = summary(results, Math.round((Date.now() - started) / 1000));
  console.log(`\n${line}`);
  const reportDir = process.env.TEST_REPORT_DIR;
  if (reportDir) {
    fs.mkdirSync(reportDir, { recursive: true });
    fs.writeFileSync(path.join(reportDir, `${process.env.TEST_REPORT_PREFIX ?? ''}suites.json`), JSON.stringify(results));
  }
  process.exit(results.length === 4 && results.every((r) => r.ok) ? 0 : 1);
}
