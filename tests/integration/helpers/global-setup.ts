/**
 * Once per integration run on the embedded database: creates and migrates one in-memory
 * database and dumps it, so each test file starts from a copy (under a second) instead of
 * creating and migrating its own (three to five seconds). With DATABASE_URL nothing is done:
 * every file creates a database on that server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '#server/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The dumped, migrated embedded database (a file path), or '' on Postgres. */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return () => {};
  }
  const handle = await openDatabase({});
  const dump = await handle.pglite!.dumpDataDir('none');
  await handle.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
