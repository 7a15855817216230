/**
 * What `npm start` and the operator commands check before they touch anything: the `.env` file is
 * read, the environment parses, and (for the server) its port is free and its data directory
 * usable. A busy port is found here, before the database is created, a first password printed or
 * the pages built.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { env, type Env } from './env';
import { dataDir, projectRoot } from './paths';

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

/**
 * The data directory (the embedded database, uploads, the local outbox, the signing key) exists or
 * can be made, and this user can write there; otherwise the start stops naming DATA_DIR.
 */
function assertDataDirUsable(configured: string | undefined): void {
  const dir = path.resolve(dataDir(configured));
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new Error(
      `DATA_DIR ${dir} cannot be used (${code}): set DATA_DIR to a directory this user can create and write, or fix its permissions.`,
    );
  }
}

/**
 * Said at start in production when SITE_URL is unset: the site then believes it is
 * http://localhost:PORT, so links in e-mails point there and a browser at the real address is
 * refused as cross-site when it signs in.
 */
export function siteUrlWarning(environment: NodeJS.ProcessEnv, port: number): string | null {
  if (environment.NODE_ENV !== 'production' || environment.SITE_URL?.trim()) return null;
  return `SITE_URL is not set: the site takes its address to be http://localhost:${port}, so links in e-mails point there and signing in from any other address is refused as cross-site. Set SITE_URL to the address visitors use (https://…).`;
}

/** `npm start`'s checks, in order: `.env`, the environment, the port, the data directory. Returns the parsed environment. */
export async function preflight(): Promise<Env> {
  loadDotEnv();
  const e = env();
  await assertPortFree(e.PORT, e.HOST);
  assertDataDirUsable(e.DATA_DIR);
  return e;
}
