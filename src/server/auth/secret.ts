import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { appMeta } from '../db/schema';
import { env } from '../env';
import { dataDir } from '../paths';

/** The key that signs session and device cookies and encrypts authenticator secrets, once settled. */
let settled: string | undefined;
const SHARED_KEY = 'auth_secret';

function secretFile(): string {
  return path.join(dataDir(env().DATA_DIR), 'auth-secret');
}

function readSecretFile(): string | undefined {
  try {
    const value = fs.readFileSync(secretFile(), 'utf8').trim();
    return value.length >= 32 ? value : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return undefined;
  }
}

/**
 * AUTH_SECRET; else the key the instances on one Postgres share (`shareAuthSecret`); else one
 * generated on first use into DATA_DIR/auth-secret (mode 0600) and reused, so a fresh install is
 * secure with no configuration and restarts keep sessions and 2FA secrets.
 */
export function authSecret(): string {
  if (settled) return settled;
  const configured = env().AUTH_SECRET;
  if (configured) return (settled = configured);
  const existing = readSecretFile();
  if (existing) return (settled = existing);
  const file = secretFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fresh = randomBytes(48).toString('base64url');
  try {
    fs.writeFileSync(file, fresh, { mode: 0o600, flag: 'wx' });
    settled = fresh;
  } catch (err) {
    // Another process wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    settled = fs.readFileSync(file, 'utf8').trim();
  }
  return settled;
}

/** Forgets the settled key: the next use settles it again from AUTH_SECRET, the database or DATA_DIR. */
export function forgetAuthSecret(): void {
  settled = undefined;
}

/**
 * Without AUTH_SECRET, instances sharing a Postgres must still share one key, or a session
 * signed by one is refused by the next (each has its own DATA_DIR). The first instance stores
 * its key in the database (the one from its DATA_DIR when it has one, so existing sessions and
 * 2FA secrets stay valid) and every instance uses the stored key from then on.
 */
export async function shareAuthSecret(db: Db): Promise<void> {
  if (env().AUTH_SECRET) return;
  const candidate = readSecretFile() ?? randomBytes(48).toString('base64url');
  await db.insert(appMeta).values({ key: SHARED_KEY, value: candidate }).onConflictDoNothing();
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, SHARED_KEY));
  if (typeof row?.value !== 'string' || row.value.length < 32) throw new Error('the shared auth secret in app_meta is unreadable');
  settled = row.value;
}
