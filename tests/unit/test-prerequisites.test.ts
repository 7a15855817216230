import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { e2eBrowser, missingMessage, missingPackages } from '../../scripts/test-prerequisites';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'prereq-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function dirWith(name: string, files: Record<string, number>): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, mode] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), '#!/bin/sh\n', { mode });
  return dir;
}

describe('[OPS] what npm test needs besides npm packages', () => {
  it('names all four, and the command that installs them, when nothing is there', () => {
    const empty = dirWith('empty', {});
    const missing = missingPackages({
      path: empty,
      browsers: [path.join(empty, 'chromium-headless-shell'), path.join(empty, 'chromium')],
      nginx: path.join(empty, 'nginx'),
    });
    expect(missing).toEqual(['chromium-headless-shell', 'nginx', 'openssl', 'default-jre-headless']);
    expect(missingMessage(missing)).toContain('apt-get install -y chromium-headless-shell nginx openssl default-jre-headless');
  });

  it('finds executables where they are looked for; a file that is not executable does not count', () => {
    const bin = dirWith('bin', { chromium: 0o755, nginx: 0o755, openssl: 0o755, java: 0o755 });
    const where = {
      path: `${dirWith('other', {})}${path.delimiter}${bin}`,
      browsers: [path.join(bin, 'chromium-headless-shell'), path.join(bin, 'chromium')],
      nginx: path.join(bin, 'nginx'),
    };
    expect(missingPackages(where)).toEqual([]);
    const plain = dirWith('plain', { openssl: 0o644, nginx: 0o644, java: 0o644 });
    expect(missingPackages({ ...where, path: plain, nginx: path.join(plain, 'nginx') })).toEqual([
      'nginx',
      'openssl',
      'default-jre-headless',
    ]);
  });

  it('npm test runs the check first: with no openssl on PATH it stops before the checks, exit 1, with the install command', () => {
    const script = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: { test: string } }).scripts.test;
    expect(script.startsWith('tsx scripts/test-prerequisites.ts && ')).toBe(true);
    const empty = dirWith('empty', {});
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/test-prerequisites.ts'], {
      env: { ...process.env, PATH: empty, CHROMIUM_PATH: path.join(empty, 'chromium') },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/apt-get update && apt-get install -y chromium-headless-shell (nginx )?openssl default-jre-headless\n/);
  });

  it('the end-to-end browser is the headless shell where present, else Chromium; CHROMIUM_PATH alone when set', () => {
    const both = dirWith('both', { 'chromium-headless-shell': 0o755, chromium: 0o755 });
    const shell = path.join(both, 'chromium-headless-shell');
    const chromium = path.join(both, 'chromium');
    expect(e2eBrowser([shell, chromium])).toBe(shell);
    const only = dirWith('only-chromium', { chromium: 0o755 });
    expect(e2eBrowser([path.join(only, 'chromium-headless-shell'), path.join(only, 'chromium')])).toBe(path.join(only, 'chromium'));
    // Neither installed: the shell's path (the prerequisites check names the package to install).
    expect(e2eBrowser([path.join(tmp, 'none', 'a'), path.join(tmp, 'none', 'b')])).toBe(path.join(tmp, 'none', 'a'));
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '-e', "import('./scripts/test-prerequisites.ts').then((m) => console.log(m.e2eBrowser()))"],
      { env: { ...process.env, CHROMIUM_PATH: chromium }, encoding: 'utf8' },
    );
    expect(run.stdout.trim()).toBe(chromium);
  });
});
