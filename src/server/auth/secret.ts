import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { env } from '../env';
import { dataDir } from '../paths';

let cached: string | undefined;

/**
 * AUTH_SECRET, or one generated on first use into DATA_DIR/auth-secret (mode 0600) and reused,
 * so a fresh install is secure with no configuration and restarts keep sessions and 2FA secrets.
 */
export function authSecret(): string {
  if (cached) return cached;
  const configured = env().AUTH_SECRET;
  if (configured) return (cached = configured);
  const dir = dataDir(env().DATA_DIR);
  const file = path.join(dir, 'auth-secret');
  try {
    cached = fs.readFileSync(file, 'utf8').trim();
    if (cached.length >= 32) return cached;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dir, { recursive: true });
  const fresh = randomBytes(48).toString('base64url');
  try {
    fs.writeFileSync(file, fresh, { mode: 0o600, flag: 'wx' });
    cached = fresh;
  } catch (err) {
    // Another process wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    cached = fs.readFileSync(file, 'utf8').trim();
  }
  return cached;
}
