/**
 * Once per integration run: creates and migrates one database, so each test file starts from a
 * copy instead of creating and migrating its own. On the embedded database it is a data directory
 * on disk, which a file copies (40 MB, a few hundredths of a second) and opens: PGlite then reads
 * only the pages it needs (loading a dump of it into memory cost each file a second of CPU more;
 * migrating takes three to five). On the Postgres server of DATABASE_URL it is a template
 * database, which `create database … template` copies in a tenth of a second (migrating takes up
 * to one).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '#server/db/client.ts';
import { createPostgresDatabase } from './db';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated embedded database's data directory, or '' on Postgres. */
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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-template-'));
  const template = path.join(dir, 'migrated');
  const handle = await openDatabase({ dir: template });
  await handle.close();
  project.provide('pgliteTemplate', template);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
