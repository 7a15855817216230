import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { dumpEmbedded, restoreEmbedded } from './db/backup';
import { getDbHandle } from './db/client';
import { log } from './log';
import type { RequestPublish } from './content/changes';

/*
 * The operators' channel to a running server that owns the embedded database: `npm run db:backup`
 * and `db:restore` may not open its directory (decision 003), so they ask the server. HTTP on a
 * Unix socket in DATA_DIR, readable and writable by the server's user only (mode 0600): nothing
 * listens on the network, and whoever can reach the socket can already read DATA_DIR itself.
 */

/** Where the channel listens. */
export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, 'control.sock');
}

/** Unix socket paths are limited to 107 bytes on Linux. */
const MAX_SOCKET_PATH = 107;

export interface ControlChannel {
  close(): Promise<void>;
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, publish: RequestPublish): Promise<void> {
  const db = await getDbHandle();
  if (req.method === 'POST' && req.url === '/backup') {
    const { data, rows, migrations } = await dumpEmbedded(db);
    log.info('database dumped for a backup', { bytes: data.length });
    res.writeHead(200, { 'content-type': 'application/gzip', 'x-backup': JSON.stringify({ rows, migrations }) });
    res.end(data);
    return;
  }
  if (req.method === 'POST' && req.url === '/restore') {
    const rows = await restoreEmbedded(db, await readBody(req));
    log.warn('database restored from a backup', { rows: Object.values(rows).reduce((a, b) => a + b, 0) });
    await publish({ kind: 'database', id: null, action: 'restored' });
    answer(res, 200, { rows });
    return;
  }
  answer(res, 404, { message: 'Unknown command' });
}

/**
 * Starts the channel when this process owns an embedded database on disk; with Postgres (or an
 * in-memory database) there is nothing to start, and the commands work without the server.
 */
export async function startControlChannel(dataDir: string, publish: RequestPublish): Promise<ControlChannel> {
  const db = await getDbHandle();
  const socket = controlSocketPath(dataDir);
  if (db.kind !== 'pglite' || !db.pglite || db.where === '(in memory)') return { close: async () => {} };
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
    log.warn('DATA_DIR is too long a path for the backup channel: stop the server to back up or restore', { socket });
    return { close: async () => {} };
  }
  // We own the database lock, so a socket file here is left from a process that is gone.
  fs.rmSync(socket, { force: true });
  const server = http.createServer((req, res) => {
    handle(req, res, publish).catch((err: Error) => {
      log.error('backup channel command failed', { path: req.url, err });
      if (!res.headersSent) answer(res, 500, { message: err.message });
      else res.destroy();
    });
  });
  // Backups of a large database take a while: no request timeout on this channel.
  server.requestTimeout = 0;
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, resolve);
    });
  } finally {
    process.umask(previous);
  }
  fs.chmodSync(socket, 0o600);
  server.unref();
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        fs.rmSync(socket, { force: true });
      }),
  };
}
