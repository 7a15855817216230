import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/client.ts';

function run(script: string, env: Record<string, string | undefined>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('[START] the embedded database', () => {
  it('a second process on the same data directory is refused, naming the directory and PID', async () => {
    const dir = path.join(tmp, 'pglite');
    const owner = await openDatabase({ dir });
    try {
      const { code, out } = await run('scripts/db-migrate.ts', { DATA_DIR: tmp, DATABASE_URL: '' });
      expect(code).not.toBe(0);
      expect(out).toContain(dir);
      expect(out).toContain(`PID ${process.pid}`);
    } finally {
      await owner.close();
    }
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    // Once released, the directory opens again with its data (reuse across restarts).
    const { code, out } = await run('scripts/db-migrate.ts', { DATA_DIR: tmp, DATABASE_URL: '' });
    expect(out).toContain('Migrations applied');
    expect(code).toBe(0);
  }, 90_000);

  it('a stale lock left by a dead process is taken over', async () => {
    const dir = path.join(tmp, 'pglite');
    fs.writeFileSync(`${dir}.lock`, '999999');
    const { code } = await run('scripts/db-migrate.ts', { DATA_DIR: tmp, DATABASE_URL: '' });
    expect(code).toBe(0);
  }, 90_000);

  it('an unreachable DATABASE_URL stops the start with one clear line and a non-zero exit', async () => {
    const { code, out } = await run('scripts/start.ts', { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(code).toBe(1);
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(out).toMatch(/^Error: Cannot connect to the database at postgres:\/\/nobody@127\.0\.0\.1:1\/none/);
  }, 30_000);
});
