import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, acquireDirLock } from '#server/db/lock.ts';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** Another process that takes the lock and reports 'locked' or 'refused', then waits to be killed. */
function holder(dir: string): Promise<{ child: ChildProcess; outcome: string }> {
  const script = `
    import { acquireDirLock } from '#server/db/lock.ts';
    try { await acquireDirLock(${JSON.stringify(dir)}); console.log('locked'); }
    catch (err) { console.log(err.name === 'DataDirLockedError' ? 'refused' : 'error ' + err.message); }
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ child, outcome: d.toString().trim() }));
  });
}

const freshDir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lock-')), 'pglite');

describe('data directory lock', { timeout: 30_000 }, () => {
  it('writes our PID and removes the file on release; a second open in the same process is refused', async () => {
    const dir = freshDir();
    const release = await acquireDirLock(dir);
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toMatch(new RegExp(`^${process.pid} [0-9a-f]{16}$`));
    await expect(acquireDirLock(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    (await acquireDirLock(dir))();
  });

  it('refuses a directory held by another live process, naming it and its PID; takes it at once after that process is killed', async () => {
    const dir = freshDir();
    const { child, outcome } = await holder(dir);
    expect(outcome).toBe('locked');
    const refused = await acquireDirLock(dir).catch((err: Error) => err);
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as Error).message).toContain(dir);
    expect((refused as Error).message).toContain(`PID ${child.pid}`);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    // A crash leaves the file behind; the kernel lock went with the process.
    expect(fs.existsSync(`${dir}.lock`)).toBe(true);
    const release = await acquireDirLock(dir);
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    release();
  });

  it('after a crash, a restart that gets the same PID (PID 1 in a container) or a PID now used by another process takes the lock', async () => {
    const dir = freshDir();
    fs.writeFileSync(`${dir}.lock`, `${process.pid} 0123456789abcdef`);
    (await acquireDirLock(dir))();
    fs.writeFileSync(`${dir}.lock`, String(process.ppid));
    (await acquireDirLock(dir))();
  });

  it('of two racing starts exactly one takes the lock', async () => {
    const dir = freshDir();
    for (let round = 0; round < 3; round++) {
      const outcomes = (await Promise.all([holder(dir), holder(dir)])).map((h) => h.outcome).sort();
      expect(outcomes).toEqual(['locked', 'refused']);
      for (const c of children.splice(0)) {
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGKILL');
        await exited;
      }
    }
  });
});
