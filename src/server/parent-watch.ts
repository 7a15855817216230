/**
 * `npm start` runs the server as npm → sh → node, and a SIGTERM sent to npm (a process manager,
 * `kill <npm pid>`) ends npm and sh without passing it on: the server would keep running,
 * orphaned, holding the port and the database lock. So the server follows its parent: once the
 * parent is gone (the server is re-parented), it stops as on SIGTERM. Started directly (PID 1 in
 * a container, or under init), there is no parent to follow.
 */
import fs from 'node:fs';
import { isAlive } from './db/lock';

/** The current parent PID (node's `process.ppid` is read once at start and never changes). */
function currentParent(): number | undefined {
  try {
    // Fields after the command name, which is in parentheses and may hold spaces: state, ppid, …
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

export function stopWithParent(stop: (reason: string) => void, intervalMs = 500): void {
  const parent = process.ppid;
  if (parent <= 1) return;
  const timer = setInterval(() => {
    const now = currentParent();
    if (now === undefined ? isAlive(parent) : now === parent) return;
    clearInterval(timer);
    stop('parent exited');
  }, intervalMs);
  timer.unref();
}
