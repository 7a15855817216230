import fs from 'node:fs';
import path from 'node:path';
import type { Sql } from 'postgres';
import { env } from '../env';
import { log } from '../log';
import { dataDir, migrationsDir } from '../paths';
import { appliedMigrations, backupBeforeMigration, migrationNames } from './backup';
import { EmbeddedClient } from './embedded-client';
import { acquireDirLock } from './lock';
import * as schema from './schema';
import type { Db, DbHandle } from './types';

export type { Db, DbHandle, Tx } from './types';

export interface OpenOptions {
  /** Postgres URL; when absent PGlite is used. */
  url?: string;
  /** PGlite directory; absent with no url means in-memory. */
  dir?: string;
  /** Postgres search_path schema (tests isolate each file in its own schema). */
  schemaName?: string;
  migrate?: boolean;
}

function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

/** Opens a database and applies pending migrations (one transaction: a failure changes nothing). */
export async function openDatabase(opts: OpenOptions): Promise<DbHandle> {
  const handle = opts.url ? await openPostgres(opts.url, opts.schemaName) : await openPglite(opts.dir);
  if (opts.migrate !== false) {
    try {
      // An embedded database on disk is copied before a migration changes it (backup.ts).
      if (opts.dir) await backupBeforeMigration(handle, path.dirname(opts.dir));
      handle.applied = await whileStarting(handle, () => runMigrations(handle, opts.schemaName));
    } catch (err) {
      await handle.close();
      throw new Error(`Database migration failed; no change was applied: ${(err as Error).message}`, { cause: err });
    }
  }
  return handle;
}

async function openPostgres(url: string, schemaName?: string): Promise<DbHandle> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const sql = postgres(url, {
    max: 10,
    // A database that does not answer costs a request two seconds, then a 503 (http.ts).
    connect_timeout: 2,
    onnotice: () => {},
    ...(schemaName ? { connection: { search_path: schemaName } } : {}),
  });
  try {
    await sql`select 1`;
  } catch (err) {
    await sql.end({ timeout: 1 }).catch(() => {});
    const e = err as NodeJS.ErrnoException;
    throw new Error(`Cannot connect to the database at ${maskUrl(url)}: ${e.code ?? ''} ${e.message}`.trim(), {
      cause: err,
    });
  }
  if (schemaName) await sql.unsafe(`create schema if not exists "${schemaName}"`);
  const db = drizzle(sql, { schema, casing: 'snake_case' });
  return { db, kind: 'postgres', where: maskUrl(url), close: () => sql.end({ timeout: 5 }) };
}

async function openPglite(dir?: string): Promise<DbHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  let release = () => {};
  if (dir) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    release = await acquireDirLock(dir);
  }
  let client: EmbeddedClient;
  // Postgres's default 128 MB of shared buffers is memory the process holds from the start (the
  // server's idle size grew by about as much); a business site's database is a few megabytes,
  // and the operating system caches its files anyway. Trigram indexes (pg_trgm, loaded by the
  // worker) make the inbox's search fast at any size (migration 0006).
  const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
  try {
    client = await EmbeddedClient.open({ dir, startParams });
  } catch (err) {
    release();
    throw err;
  }
  const db = drizzle({ client: client as never, schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    where: dir ?? '(in memory)',
    pglite: client,
    close: async () => {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

/** Any constant; it names "an instance is migrating or seeding". */
const START_LOCK = 74_210_518;

/**
 * Runs `work` under a Postgres session advisory lock, so instances started together on one
 * database migrate and seed one after another instead of racing (the embedded database has one
 * process, so there it simply runs).
 */
export async function whileStarting<T>(handle: DbHandle, work: () => Promise<T>): Promise<T> {
  if (handle.kind !== 'postgres') return work();
  const client = (handle.db as unknown as { $client: Sql }).$client;
  const reserved = await client.reserve();
  try {
    await reserved`select pg_advisory_lock(${START_LOCK})`;
    try {
      return await work();
    } finally {
      await reserved`select pg_advisory_unlock(${START_LOCK})`;
    }
  } finally {
    reserved.release();
  }
}

/** Applies the pending migrations; returns the names of those it applied. */
async function runMigrations(handle: DbHandle, schemaName?: string): Promise<string[]> {
  const before = await appliedMigrations(handle.db, schemaName);
  const migrationsFolder = migrationsDir();
  const config = { migrationsFolder, ...(schemaName ? { migrationsSchema: schemaName } : {}) };
  if (handle.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(handle.db as never, config);
  } else {
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    await migrate(handle.db, config);
  }
  return migrationNames().slice(before, await appliedMigrations(handle.db, schemaName));
}

/* One handle per process: two PGlite instances on one directory would corrupt it. */
const slot: { promise?: Promise<DbHandle> } = {};

/** The process's database, opened (and migrated) on first use from the environment. */
export function getDbHandle(): Promise<DbHandle> {
  if (!slot.promise) {
    const e = env();
    slot.promise = openDatabase(e.DATABASE_URL ? { url: e.DATABASE_URL } : { dir: path.join(dataDir(e.DATA_DIR), 'pglite') }).then(
      (h) => {
        log.info('database ready', { kind: h.kind, where: h.where });
        return h;
      },
      (err) => {
        slot.promise = undefined;
        throw err;
      },
    );
  }
  return slot.promise;
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/** Installs an already-open handle as the process's database (tests, scripts). */
export function setDbHandle(handle: DbHandle | undefined): void {
  slot.promise = handle ? Promise.resolve(handle) : undefined;
}

export async function closeDb(): Promise<void> {
  const p = slot.promise;
  slot.promise = undefined;
  if (p) await (await p.catch(() => undefined))?.close();
}
