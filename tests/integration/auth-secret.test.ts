import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSecret, shareAuthSecret } from '#server/auth/secret.ts';
import type { DbHandle } from '#server/db/client.ts';
import { appMeta } from '#server/db/schema/index.ts';
import { resetEnvCache } from '#server/env.ts';
import { openTestDatabase } from './helpers/db';

/*
 * Instances on one Postgres, each with its own DATA_DIR, must sign sessions and encrypt
 * authenticator secrets with one key (npm start calls shareAuthSecret with DATABASE_URL).
 */
let handle: DbHandle;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-secret-'));
const first = path.join(tmp, 'first');
const second = path.join(tmp, 'second');
const savedSecret = process.env.AUTH_SECRET;

function useDataDir(dir: string, secret?: string) {
  process.env.DATA_DIR = dir;
  if (secret) process.env.AUTH_SECRET = secret;
  else delete process.env.AUTH_SECRET;
  resetEnvCache();
}

async function stored(): Promise<unknown> {
  const [row] = await handle.db.select().from(appMeta).where(eq(appMeta.key, 'auth_secret'));
  return row?.value;
}

beforeAll(async () => {
  handle = await openTestDatabase();
});

afterAll(async () => {
  await handle?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
  if (savedSecret) process.env.AUTH_SECRET = savedSecret;
  delete process.env.DATA_DIR;
  resetEnvCache();
});

describe('[AUTH][FLEET] one key for every instance on a database', () => {
  it('with AUTH_SECRET set nothing is stored: the key stays out of the database', async () => {
    useDataDir(first, 'configured-secret-configured-secret-0123');
    await shareAuthSecret(handle.db);
    expect(await stored()).toBeUndefined();
  });

  it('the first instance stores the key of its DATA_DIR; an instance with another DATA_DIR uses that key', async () => {
    useDataDir(first);
    fs.mkdirSync(first, { recursive: true });
    const existing = 'key-of-an-existing-install-'.padEnd(48, 'x');
    fs.writeFileSync(path.join(first, 'auth-secret'), existing);
    await shareAuthSecret(handle.db);
    expect(await stored()).toBe(existing);
    expect(authSecret()).toBe(existing);

    useDataDir(second);
    fs.mkdirSync(second, { recursive: true });
    fs.writeFileSync(path.join(second, 'auth-secret'), 'a-different-key-of-its-own-'.padEnd(48, 'y'));
    await shareAuthSecret(handle.db);
    expect(authSecret()).toBe(existing);
    expect(await stored()).toBe(existing);
  });
});
