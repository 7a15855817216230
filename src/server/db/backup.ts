import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { log } from '../log';
import { migrationsDir } from '../paths';
import { EmbeddedClient } from './embedded-client';
import type { Db, DbHandle } from './types';

/*
 * Backups. One file, a tar archive:
 *   manifest.json      what it is: database kind, when, the row count of every table
 *   database.tar.gz    embedded database: PGlite's own dump of its data directory (dumpDataDir)
 *   database.sql       Postgres: plain `pg_dump --clean --if-exists` output (psql restores it)
 *   uploads/           DATA_DIR/uploads, when files are stored on local disk
 *   auth-secret        the generated AUTH_SECRET, when there is one (it encrypts 2FA secrets)
 * The embedded database belongs to the server process alone (decision 003), so a running server
 * makes the dump and the restore itself (control-channel.ts); the archive is put together
 * by the command line, which reads only plain files.
 */

export const BACKUP_FORMAT = 'procurement-site-backup/1';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  kind: DbHandle['kind'];
  createdAt: string;
  /** Rows per table of the public schema when the dump was taken. */
  rows: Record<string, number>;
  /** How many migrations the database had applied (its schema version). */
  migrations: number;
  uploads: boolean;
  authSecret: boolean;
  reason: string;
}

/** The rows of a raw `db.execute` (PGlite and node-postgres give them differently). */
export const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows);

async function tablesOf(db: Db): Promise<string[]> {
  const result = await db.execute(sql`select tablename from pg_tables where schemaname = current_schema() order by tablename`);
  return rowsOf<{ tablename: string }>(result).map((r) => r.tablename);
}

/** The number of rows in every table of the application's schema. */
export async function countRows(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await tablesOf(db)) {
    const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`));
    counts[table] = Number(row?.n ?? 0);
  }
  return counts;
}

/** How many migrations the database has applied (0 for a new, empty one). */
export async function appliedMigrations(db: Db, schemaName = 'drizzle'): Promise<number> {
  const [exists] = rowsOf<{ t: string | null }>(
    await db.execute(sql`select to_regclass(${`"${schemaName}".__drizzle_migrations`})::text as t`),
  );
  if (!exists?.t) return 0;
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from ${sql.identifier(schemaName)}.${sql.identifier('__drizzle_migrations')}`),
  );
  return Number(row?.n ?? 0);
}

/** The names of the migrations this code knows, in order (db/migrations/meta/_journal.json). */
export function migrationNames(): string[] {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir(), 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return journal.entries.map((e) => e.tag);
}

/** How many migrations this code knows. */
function knownMigrations(): number {
  return migrationNames().length;
}

function run(command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: Buffer } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...opts.env }, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(new Error(e.code === 'ENOENT' ? `${command} is not installed (it is needed for backups)` : e.message)),
    );
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (${code}): ${err.trim().split('\n').slice(-3).join(' ')}`)),
    );
    child.stdin.end(opts.input);
  });
}

/** libpq settings for a URL, the password kept out of the command line (other users can read it there). */
function libpq(url: string): { target: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { target: u.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/**
 * `pg_dump` of a Postgres database into `file`: plain SQL that drops and recreates every object.
 * `snapshot` (pg_export_snapshot of an open transaction) makes it dump exactly what that sees.
 */
export async function pgDump(url: string, file: string, snapshot?: string): Promise<void> {
  const { target, env } = libpq(url);
  const args = ['--format=plain', '--no-owner', '--no-privileges', '--clean', '--if-exists', '--file', file];
  await run('pg_dump', [...args, ...(snapshot ? [`--snapshot=${snapshot}`] : []), target], { env });
}

/** Restores a `pg_dump` file into a Postgres database in one transaction (all or nothing). */
export async function psqlRestore(url: string, file: string): Promise<void> {
  const { target, env } = libpq(url);
  await run('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', '--file', file, '--dbname', target], { env });
}

/** The embedded database's client; only a handle opened on PGlite has one. */
function pgliteOf(handle: DbHandle): EmbeddedClient {
  if (!handle.pglite) throw new Error('This is not the embedded database');
  return handle.pglite;
}

/** A dump opened in memory, on a thread of its own like the live database (which is never touched). */
async function openDump(dump: Buffer): Promise<{ source: EmbeddedClient; db: Db }> {
  const { drizzle } = await import('drizzle-orm/pglite');
  const source = await EmbeddedClient.open({ load: dump });
  return { source, db: drizzle({ client: source as never, casing: 'snake_case' }) as unknown as Db };
}

/**
 * PGlite's dump of the whole data directory (a gzipped tar). The row counts are read from the
 * dump itself, opened in memory: they describe exactly what was saved, and a dump that does not
 * open is found now rather than on the day it is needed.
 */
export async function dumpEmbedded(handle: DbHandle): Promise<{ data: Buffer; rows: Record<string, number>; migrations: number }> {
  const data = Buffer.from(await (await pgliteOf(handle).dumpDataDir()).arrayBuffer());
  const { source, db } = await openDump(data);
  try {
    return { data, rows: await countRows(db), migrations: await appliedMigrations(db) };
  } finally {
    await source.close();
  }
}

/**
 * Replaces every row of the open embedded database with those of a dump, in one transaction:
 * requests see the old data or the new, never a mix, and the server keeps running. The dump is
 * opened in memory and migrated to this code's schema first, so an older backup restores into
 * newer code; a backup from newer code is refused.
 */
export async function restoreEmbedded(handle: DbHandle, dump: Buffer): Promise<Record<string, number>> {
  const live = pgliteOf(handle);
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const { source, db: sourceDb } = await openDump(dump);
  try {
    const theirs = await appliedMigrations(sourceDb);
    if (theirs > knownMigrations())
      throw new Error(`The backup is from a newer version (${theirs} migrations, this code has ${knownMigrations()}): upgrade first`);
    await migrate(sourceDb as never, { migrationsFolder: migrationsDir() });
    const quote = (t: string) => `"${t.replaceAll('"', '""')}"`;
    const quoted = (await tablesOf(handle.db)).map(quote);
    const inBackup = new Set((await tablesOf(sourceDb)).map(quote));
    const sequences = await source.query<{ name: string; value: string | null }>(
      `select format('%I.%I', schemaname, sequencename) as name, last_value::text as value from pg_sequences where schemaname = current_schema()`,
    );
    const copies: [table: string, blob: Blob | undefined][] = [];
    // A table the backup does not have (the live schema is newer) is left empty.
    for (const table of quoted.filter((t) => inBackup.has(t)))
      copies.push([table, (await source.query(`copy ${table} to '/dev/blob'`)).blob]);
    await live.transaction(async (tx) => {
      // Rows go in table by table; foreign keys hold again once all are in.
      await tx.exec('set local session_replication_role = replica');
      await tx.exec(`truncate ${quoted.join(', ')}`);
      for (const [table, blob] of copies) if (blob) await tx.query(`copy ${table} from '/dev/blob'`, [], { blob });
      for (const s of sequences.rows) await tx.query('select setval($1, $2::bigint, $3)', [s.name, s.value ?? '1', s.value !== null]);
    });
  } finally {
    await source.close();
  }
  return countRows(handle.db);
}

/** What goes into an archive besides the manifest: files in a staging directory, and the data directory's plain files. */
interface ArchiveParts {
  manifest: BackupManifest;
  /** Directory holding the database part (database.tar.gz or database.sql). */
  staging: string;
  /** DATA_DIR, where `uploads/` and `auth-secret` are taken from when the manifest says so. */
  dataDir: string;
}

/** Writes the archive to a temporary name beside `out`, then renames it: a partial backup never has the final name. */
export async function writeArchive(out: string, parts: ArchiveParts): Promise<void> {
  const { manifest, staging, dataDir } = parts;
  fs.writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const database = manifest.kind === 'pglite' ? 'database.tar.gz' : 'database.sql';
  const fromData = [manifest.uploads ? 'uploads' : '', manifest.authSecret ? 'auth-secret' : ''].filter(Boolean);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.partial-${process.pid}`;
  try {
    await run('tar', ['-cf', tmp, '-C', staging, 'manifest.json', database, ...(fromData.length ? ['-C', dataDir, ...fromData] : [])]);
    fs.chmodSync(tmp, 0o600);
    fs.renameSync(tmp, out);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** Unpacks an archive into a new temporary directory and reads its manifest. */
export async function openArchive(file: string): Promise<{ dir: string; manifest: BackupManifest }> {
  if (!fs.existsSync(file)) throw new Error(`No such backup file: ${file}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-'));
  try {
    await run('tar', ['-xf', path.resolve(file), '-C', dir, '--no-same-owner']);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as BackupManifest;
    if (manifest.format !== BACKUP_FORMAT) throw new Error('unknown format');
    return { dir, manifest };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`${file} is not a backup made by npm run db:backup (${(err as Error).message})`, { cause: err });
  }
}

/** Where automatic and default backups go: DATA_DIR/backups. */
export function backupsDir(dataDir: string): string {
  return path.join(dataDir, 'backups');
}

/** A file name that sorts by time: `<prefix>-20261126T175600Z.tar`. */
export function backupName(prefix: string, at = new Date()): string {
  return `${prefix}-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar`;
}

/**
 * Before migrating an embedded database that has data, keep a copy of it as it is: a migration
 * that goes wrong (or a downgrade) can then be undone with `npm run db:restore`.
 */
export async function backupBeforeMigration(handle: DbHandle, dataDir: string): Promise<string | undefined> {
  const applied = await appliedMigrations(handle.db);
  if (applied === 0 || applied >= knownMigrations()) return undefined;
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-'));
  try {
    const { data, rows } = await dumpEmbedded(handle);
    fs.writeFileSync(path.join(staging, 'database.tar.gz'), data);
    const out = path.join(backupsDir(dataDir), backupName(`before-migration-${applied}`));
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      kind: 'pglite',
      createdAt: new Date().toISOString(),
      rows,
      migrations: applied,
      uploads: false,
      authSecret: false,
      reason: `before migrating from ${applied} to ${knownMigrations()} migrations`,
    };
    await writeArchive(out, { manifest, staging, dataDir });
    log.info('database backed up before migrating', { file: out, from: applied, to: knownMigrations() });
    return out;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
