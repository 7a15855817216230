import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { inject } from 'vitest';
import { snapshotContent, type SiteContent } from '#server/content/site-content.ts';
import { openDatabase, setDbHandle, type DbHandle } from '#server/db/client.ts';
import { seed } from '#server/services/seed.ts';

/** Runs one statement on the Postgres server of `base` (its own short connection). */
async function onServer(base: string, statement: string): Promise<void> {
  const sql = postgres(base, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end();
  }
}

/**
 * A new database of its own on the Postgres server of `base`, empty or a copy of `template`: its
 * name and URL, and how to drop it.
 */
export async function createPostgresDatabase(
  base: string,
  template?: string,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onServer(base, `create database "${name}"${template ? ` template "${template}"` : ''}`);
  const url = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  return { name, url, drop: () => onServer(base, `drop database if exists "${name}" with (force)`) };
}

/**
 * A clean, migrated database for one test file: an embedded one (PGlite) by default, or a database
 * of its own on the Postgres server of DATABASE_URL; either is removed again on close.
 */
export async function openTestDatabase(): Promise<DbHandle> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    // A copy of the data directory migrated once for the run (helpers/global-setup.ts).
    const template = inject('pgliteTemplate');
    if (!template) return openDatabase({});
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-test-'));
    const dir = path.join(parent, 'pglite');
    fs.cpSync(template, dir, { recursive: true });
    const handle = await openDatabase({ dir });
    return {
      ...handle,
      close: async () => {
        try {
          await handle.close();
        } finally {
          fs.rmSync(parent, { recursive: true, force: true });
        }
      },
    };
  }
  // A copy of the database migrated once for the run (helpers/global-setup.ts); migrating it
  // again finds nothing to apply.
  const database = await createPostgresDatabase(base, inject('postgresTemplate') || undefined);
  const handle = await openDatabase({ url: database.url });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await database.drop();
    },
  };
}

/** The content a new site has: a test database seeded as a first start seeds it, snapshotted, closed again. */
export async function seededContent(): Promise<SiteContent> {
  const handle = await openTestDatabase();
  setDbHandle(handle);
  try {
    await seed(handle.db);
    return await snapshotContent(handle.db);
  } finally {
    setDbHandle(undefined);
    await handle.close();
  }
}
