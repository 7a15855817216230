import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, acquireDirLock } from '#server/db/lock.ts';

describe('data directory lock', () => {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lock-')), 'pglite');

  it('writes our PID and removes the file on release', () => {
    const release = acquireDirLock(dir);
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });

  it('refuses a directory held by a live process, naming it and its PID', () => {
    fs.writeFileSync(`${dir}.lock`, String(process.ppid));
    try {
      acquireDirLock(dir);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DataDirLockedError);
      expect((err as Error).message).toContain(dir);
      expect((err as Error).message).toContain(`PID ${process.ppid}`);
    }
    fs.rmSync(`${dir}.lock`);
  });

  it('takes over a lock left by a dead process', () => {
    fs.writeFileSync(`${dir}.lock`, '999999');
    const release = acquireDirLock(dir);
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    release();
  });
});
