import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import postgres from 'postgres';
import { inject } from 'vitest';
import { openDatabase, type DbHandle } from '#server/db/client.ts';

/**
 * A clean, migrated database for one test file: PGlite in memory by default, or a database of
 * its own on the Postgres server of DATABASE_URL (dropped again on close).
 */
export async function openTestDatabase(): Promise<DbHandle> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    // A copy of the database migrated once for the run (helpers/global-setup.ts).
    const template = inject('pgliteTemplate');
    return openDatabase(template ? { template: new Blob([fs.readFileSync(template)]) } : {});
  }
  const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const sql = postgres(base, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists "${name}" with (force)`);
      await sql.end();
    },
  };
}
