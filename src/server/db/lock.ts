import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

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
 * The kernel's lock on Linux: a listening socket in the abstract namespace, named after the
 * directory. Binding is atomic (two racing starts: one gets EADDRINUSE) and the kernel drops it
 * the instant its process dies, so a crash never leaves it behind and a reused PID (PID 1 again
 * in a restarted container) does not matter. Undefined where abstract sockets do not exist.
 */
async function kernelLock(dir: string): Promise<net.Server | 'held' | undefined> {
  if (process.platform !== 'linux') return undefined;
  const name = `\0procurement-site-db-${createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 32)}`;
  const server = net.createServer((socket) => socket.destroy());
  return new Promise((resolve) => {
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE' ? 'held' : undefined));
    server.listen(name, () => {
      // The lock must not keep the process alive on its own.
      server.unref();
      resolve(server);
    });
  });
}

function readOwner(lockPath: string): { pid: number; nonce: string } | undefined {
  try {
    const [pid, nonce = ''] = fs.readFileSync(lockPath, 'utf8').trim().split(/\s+/);
    const n = Number.parseInt(pid ?? '', 10);
    return Number.isInteger(n) ? { pid: n, nonce } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the embedded database directory for this process (PGlite has no cross-process lock: a
 * second process would read and write a stale copy). `<dir>.lock` records the owner's PID for
 * the error message and for systems without the kernel lock; there, a lock whose PID is not
 * running is taken over. Returns the release function.
 */
export async function acquireDirLock(dir: string): Promise<() => void> {
  const lockPath = `${dir}.lock`;
  const nonce = randomBytes(8).toString('hex');
  const kernel = await kernelLock(dir);
  if (kernel === 'held') throw new DataDirLockedError(dir, readOwner(lockPath)?.pid ?? 0);
  if (kernel) {
    // We hold the kernel lock: whatever the file says is left from a process that is gone.
    fs.writeFileSync(lockPath, `${process.pid} ${nonce}`, { mode: 0o600 });
  } else {
    takeFileLock(dir, lockPath, nonce);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    kernel?.close();
    if (readOwner(lockPath)?.nonce === nonce) fs.rmSync(lockPath, { force: true });
  };
}

/** Without the kernel lock: an exclusive create, taking over a lock whose process is not running. */
function takeFileLock(dir: string, lockPath: string, nonce: string): void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      fs.writeSync(fd, `${process.pid} ${nonce}`);
      fs.closeSync(fd);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readOwner(lockPath);
      if (owner && owner.pid !== process.pid && isAlive(owner.pid)) throw new DataDirLockedError(dir, owner.pid);
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}
