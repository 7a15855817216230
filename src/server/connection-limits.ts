import fs from 'node:fs';
import type http from 'node:http';
import type { Socket } from 'node:net';

/**
 * Caps open connections so that one client cannot hold every file descriptor (thousands of idle
 * sockets would otherwise starve the database pool, the uploads and every other visitor):
 * - in total, below the process's open-file limit (`server.maxConnections`: node refuses the
 *   socket before any byte is read);
 * - per client address, unless a trusted proxy is in front (every socket then comes from the
 *   proxy, which has to cap per client itself, e.g. nginx `limit_conn`).
 * A refused socket is closed at once; browsers open at most six per host.
 */
export interface ConnectionLimits {
  total: number;
  /** 0 switches the per-client cap off. */
  perClient: number;
}

/** The soft open-file limit (Linux), or undefined where it cannot be read. */
function openFileLimit(): number | undefined {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

/** Three quarters of the descriptors for sockets, the rest for files, the database and logs. */
export function defaultConnectionLimits(trustProxy: boolean): ConnectionLimits {
  const fds = openFileLimit() ?? 1024;
  return { total: Math.max(64, Math.floor(fds * 0.75)), perClient: trustProxy ? 0 : 128 };
}

export function limitConnections(server: http.Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.total;
  if (limits.perClient <= 0) return;
  const open = new Map<string, number>();
  // First listener: a refused socket never reaches the HTTP parser.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.perClient) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
