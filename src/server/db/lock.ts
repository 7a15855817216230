import fs from 'node:fs';

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database directory ${dir} is in use by another process (PID ${pid}). ` +
        `Only one process may open it: stop that process, or set DATA_DIR to another directory, ` +
        `or DATABASE_URL to a Postgres server.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** Is a process with this PID running (EPERM: running, under another user)? */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<dir>.lock` holding our PID (PGlite has no cross-process lock: a second process would read and write a stale copy).
 * A lock left by a dead process is taken over. Returns the release function.
 */
export function acquireDirLock(dir: string): () => void {
  const lockPath = `${dir}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number.parseInt(fs.readFileSync(lockPath, 'utf8').trim(), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new DataDirLockedError(dir, owner);
      }
      if (owner === process.pid) {
        throw new Error(`${dir} is already open in this process`);
      }
      // Stale lock from a process that died: remove it and try again.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}
