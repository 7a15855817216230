import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runLogged } from '../../scripts/bundle';
import { formatDuration, phase } from '../../src/server/phases.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'start-phases-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A console stand-in: what was written, as a terminal or a pipe. */
function console(isTTY: boolean) {
  const written: string[] = [];
  return { written, out: { isTTY, write: (t: string) => written.push(t) } as unknown as NodeJS.WriteStream };
}

/** A child that talks as much as a build: 70 lines on standard output, warnings on standard error. */
const NOISY = `for (let i = 0; i < 70; i++) console.log('dist/client/_astro/chunk-' + i + '.js  1.0 kB');
for (let i = 0; i < 4; i++) console.error('[WARN] warning ' + i);
process.exitCode = Number(process.argv[1] ?? 0);`;

describe('[START] one line per phase', () => {
  it('times as a person reads them', () => {
    expect(formatDuration(420)).toBe('0.4 s');
    expect(formatDuration(12_345)).toBe('12.3 s');
    expect(formatDuration(59_999)).toBe('1 min 0 s');
    expect(formatDuration(74_400)).toBe('1 min 14 s');
  });

  it('a phase prints one line when it ends: its name, its time, what it did', async () => {
    const { written, out } = console(false);
    const result = await phase(
      'Database',
      async () => {
        await new Promise((r) => setTimeout(r, 120));
        return 14;
      },
      (n) => `${n} migrations applied`,
      { out, doing: 'opening the database…' },
    );
    expect(result).toBe(14);
    // Not a terminal: no progress text, one whole line.
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^ {2}Database {2,}0\.[1-9] s {3}14 migrations applied\n$/);
  });

  it('on a terminal the phase says what it does while it runs, then its line replaces that', async () => {
    const { written, out } = console(true);
    await phase(
      'Build',
      () => Promise.resolve(),
      () => 'built',
      { out, doing: 'building…' },
    );
    expect(written[0]).toBe('  Build             …   building…');
    // Back to the line's start, cleared, then the line.
    expect(written[1]!.slice(0, 4)).toBe('\r\u001b[K');
    expect(written[1]!.slice(4)).toMatch(/^ {2}Build +\d+\.\d s {3}built\n$/);
  });

  it('a failed phase prints its line ending in "failed" and passes the error on', async () => {
    const { written, out } = console(false);
    await expect(
      phase(
        'Pages',
        () => Promise.reject(new Error('render broke')),
        () => 'never',
        { out },
      ),
    ).rejects.toThrow('render broke');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^ {2}Pages +\d+\.\d s {3}failed\n$/);
  });
});

describe('[START] the build detail goes to a log file', () => {
  it('a start building prints its one line; the 70 lines and warnings are only in the log file', async () => {
    const logFile = path.join(tmp, 'data', 'logs', 'build.log');
    // As the start runs it: its own process, its console captured.
    const script = `
      import { runLogged } from ${JSON.stringify(path.resolve('scripts/bundle.ts'))};
      import { phase } from ${JSON.stringify(path.resolve('src/server/phases.mjs'))};
      await phase('Build', () => runLogged(process.execPath, ['-e', ${JSON.stringify(NOISY)}, '0'],
        { name: 'noisy build', cwd: process.cwd(), env: process.env, logFile: ${JSON.stringify(logFile)} }),
        () => 'server bundle built; details in ${logFile}');`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^  Build +\\d+\\.\\d s   server bundle built; details in ${logFile}$`)),
      '',
    ]);
    const logged = fs.readFileSync(logFile, 'utf8');
    expect(logged.match(/chunk-\d+\.js/g)).toHaveLength(70);
    expect(logged.match(/\[WARN\]/g)).toHaveLength(4);
  }, 30_000);

  it('a failed build says so, quoting the last lines of its log file (made afresh) and naming it', async () => {
    const logFile = path.join(tmp, 'failed', 'build.log');
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    fs.writeFileSync(logFile, 'an older build\n');
    const failure = await runLogged(process.execPath, ['-e', NOISY, '3'], {
      name: 'noisy build',
      cwd: tmp,
      env: process.env,
      logFile,
    }).then(
      () => null,
      (err: Error) => err,
    );
    expect(failure?.message.split('\n')[0]).toBe(`noisy build exited with 3; the last lines of ${logFile}:`);
    const quoted = failure!.message.split('\n').slice(1);
    expect(quoted).toHaveLength(20);
    expect(quoted.at(-1)).toBe('[WARN] warning 3');
    expect(fs.readFileSync(logFile, 'utf8')).not.toContain('an older build');
  }, 30_000);
});
