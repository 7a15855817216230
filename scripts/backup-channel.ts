import http from 'node:http';
import { controlSocketPath } from '#server/control-channel.ts';

interface ChannelAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Sends a command to the running server that owns the embedded database in `dataDir`
 * (src/server/control-channel.ts). Undefined when no server is running there.
 */
export function askServer(dataDir: string, command: '/backup' | '/restore', body?: Buffer): Promise<ChannelAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: controlSocketPath(dataDir), path: command, method: 'POST' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ENOENT' || err.code === 'ECONNREFUSED' ? resolve(undefined) : reject(err),
    );
    req.end(body);
  });
}

/** The server's error message from a failed command. */
export function failure(answer: ChannelAnswer): Error {
  let message = answer.body.toString();
  try {
    message = (JSON.parse(message) as { message: string }).message;
  } catch {
    // not JSON: keep the text
  }
  return new Error(`The server could not do it: ${message}`);
}
