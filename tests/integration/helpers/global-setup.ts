/**
 * Once per integration run: creates and migrates one database, so each test file starts from a
 * copy instead of creating and migrating its own. On the embedded database it is an in-memory
 * database dumped to a file (a copy loads in under a second; migrating takes three to five); on
 * the Postgres server of DATABASE_URL it is a template database, which `create database … template`
 * copies in a tenth of a second (migrating takes up to one).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '#server/db/client.ts';
import { createPostgresDatabase } from './db';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The dumped, migrated embedded database (a file path), or '' on Postgres. */
    pgliteTemplate: string;
    /** The migrated template database on the Postgres server of DATABASE_URL, or ''. */
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void | Promise<void>> {
  const base = process.env.DATABASE_URL;
  if (base) {
    project.provide('pgliteTemplate', '');
    const template = await createPostgresDatabase(base);
    const handle = await openDatabase({ url: template.url });
    await handle.close();
    project.provide('postgresTemplate', template.name);
    return () => template.drop();
  }
  project.provide('postgresTemplate', '');
  const handle = await openDatabase({});
  const dump = await handle.pglite!.dumpDataDir('none');
  await handle.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
