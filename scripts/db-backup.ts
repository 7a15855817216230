/**
 * `npm run db:backup [-- FILE]`: one archive with the database, the uploaded files (local disk)
 * and the generated AUTH_SECRET; by default DATA_DIR/backups/backup-<time>.tar. The server may
 * keep running: with the embedded database it makes the dump itself, with Postgres `pg_dump` does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import {
  appliedMigrations,
  BACKUP_FORMAT,
  backupName,
  backupsDir,
  countRows,
  dumpEmbedded,
  pgDump,
  writeArchive,
  type BackupManifest,
} from '#server/db/backup.ts';
import { openDatabase, type Db } from '#server/db/client.ts';
import { env } from '#server/env.ts';
import { dataDir } from '#server/paths.ts';
import { askServer, failure } from './backup-channel';
import { runScript } from './run-script';

type Dumped = { rows: Record<string, number>; migrations: number };

/** pg_dump inside a snapshot whose row counts are read in the same snapshot: they describe the dump exactly. */
async function dumpPostgres(url: string, file: string): Promise<Dumped> {
  const handle = await openDatabase({ url, migrate: false });
  try {
    return await handle.db.transaction(
      async (tx) => {
        const result = (await tx.execute(sql`select pg_export_snapshot() as id`)) as unknown as { id: string }[];
        const snapshot = result[0]!.id;
        const counted = { rows: await countRows(tx as unknown as Db), migrations: await appliedMigrations(tx as unknown as Db) };
        await pgDump(url, file, snapshot);
        return counted;
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  } finally {
    await handle.close();
  }
}

/** The embedded database: asked of the running server, or opened here when none runs. */
async function dumpPglite(data: string, file: string): Promise<Dumped> {
  const answer = await askServer(data, '/backup');
  if (answer) {
    if (answer.status !== 200) throw failure(answer);
    fs.writeFileSync(file, answer.body);
    return JSON.parse(String(answer.headers['x-backup'])) as Dumped;
  }
  const handle = await openDatabase({ dir: path.join(data, 'pglite'), migrate: false });
  try {
    const dumped = await dumpEmbedded(handle);
    fs.writeFileSync(file, dumped.data);
    return { rows: dumped.rows, migrations: dumped.migrations };
  } finally {
    await handle.close();
  }
}

runScript(async () => {
  const e = env();
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  const data = dataDir(e.DATA_DIR);
  const out = path.resolve(positionals[0] ?? path.join(backupsDir(data), backupName('backup')));
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-'));
  try {
    const dumped = e.DATABASE_URL
      ? await dumpPostgres(e.DATABASE_URL, path.join(staging, 'database.sql'))
      : await dumpPglite(data, path.join(staging, 'database.tar.gz'));
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      kind: e.DATABASE_URL ? 'postgres' : 'pglite',
      createdAt: new Date().toISOString(),
      ...dumped,
      uploads: !e.BLOB_READ_WRITE_TOKEN && fs.existsSync(path.join(data, 'uploads')),
      authSecret: !e.AUTH_SECRET && fs.existsSync(path.join(data, 'auth-secret')),
      reason: 'npm run db:backup',
    };
    await writeArchive(out, { manifest, staging, dataDir: data });
    const rows = Object.values(manifest.rows).reduce((a, b) => a + b, 0);
    const files = manifest.uploads
      ? ', the uploaded files'
      : e.BLOB_READ_WRITE_TOKEN
        ? ' (uploads are in Vercel Blob, not in this file)'
        : '';
    console.log(
      `Backup written: ${out} (${(fs.statSync(out).size / 1024 / 1024).toFixed(1)} MB; ${rows} rows in ${Object.keys(manifest.rows).length} tables${files}).`,
    );
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
});
