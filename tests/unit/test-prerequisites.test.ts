import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingMessage, missingPackages } from '../../scripts/test-prerequisites';

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
    const missing = missingPackages({ path: empty, chromium: path.join(empty, 'chromium'), nginx: path.join(empty, 'nginx') });
    expect(missing).toEqual(['chromium', 'nginx', 'openssl', 'default-jre-headless']);
    expect(missingMessage(missing)).toContain('apt-get install -y chromium nginx openssl default-jre-headless');
  });

  it('finds executables where they are looked for; a file that is not executable does not count', () => {
    const bin = dirWith('bin', { chromium: 0o755, nginx: 0o755, openssl: 0o755, java: 0o755 });
    const where = {
      path: `${dirWith('other', {})}${path.delimiter}${bin}`,
      chromium: path.join(bin, 'chromium'),
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
    expect(run.stderr).toMatch(/apt-get update && apt-get install -y chromium (nginx )?openssl default-jre-headless\n/);
  });
});
