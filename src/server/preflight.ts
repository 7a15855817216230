/**
 * What `npm start` and the operator commands check before they touch anything: the `.env` file is
 * read, the environment parses, and (for the server) its port is free. A busy port is found here,
 * before the database is created, a first password printed or the pages built.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { env, type Env } from './env';
import { projectRoot } from './paths';

/**
 * Reads `.env` from the project root when there is one. Variables already set in the environment
 * win (`PORT=4400 npm start` overrides the file).
 */
export function loadDotEnv(root = projectRoot()): void {
  const file = path.join(root, '.env');
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

/** Resolves when `port` on `host` can be listened on; otherwise fails with what to do about it. */
function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE')
        reject(
          new Error(
            `Port ${port} is already in use by another program. Stop it, or set PORT to a free port (e.g. PORT=${port + 1} npm start).`,
          ),
        );
      else if (err.code === 'EACCES')
        reject(new Error(`Port ${port} needs privileges this user does not have: set PORT to a port above 1023 (e.g. PORT=4321).`));
      else reject(new Error(`Cannot listen on ${host}:${port} (${err.code ?? err.message}): set HOST or PORT.`));
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** `npm start`'s checks, in order: `.env`, the environment, the port. Returns the parsed environment. */
export async function preflight(): Promise<Env> {
  loadDotEnv();
  const e = env();
  await assertPortFree(e.PORT, e.HOST);
  return e;
}
