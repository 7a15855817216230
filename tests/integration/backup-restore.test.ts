/**
 * The restore drill: a backup taken while the server runs, more writes, a restore while it still
 * runs, then every table has the rows the backup counted, the uploads are back, and the server
 * keeps answering. On the embedded database the server owns the directory the whole time (its
 * lock), so the commands can only have worked by asking it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, type BackupManifest } from '#server/db/backup.ts';
import { openDatabase, type DbHandle } from '#server/db/client.ts';
import { migrationsDir } from '#server/paths.ts';
import type { ControlChannel } from '#server/control-channel.ts';
import { startTestServer, type TestServer } from './helpers/server';
import { bundleApi } from '../helpers/bundle';
import { LIFTOFF_ONLY } from '../helpers/liftoff';

const { startControlChannel } = bundleApi;

/**
 * What undoes the newest migration, read from its SQL: the tables it creates are dropped, the
 * columns, indexes, functions and triggers it adds removed. A migration doing anything else has to be
 * undone here by hand.
 */
function undoNewestMigration(): { statements: string[]; tables: string[] } {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir(), 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const text = fs.readFileSync(path.join(migrationsDir(), `${journal.entries.at(-1)!.tag}.sql`), 'utf8');
  const statements: string[] = [];
  const tables: string[] = [];
  const columns = new Set<string>();
  for (const stmt of text
    .split('--> statement-breakpoint')
    // A statement's own comment lines go.
    .map((x) => x.replace(/^(\s*--[^\n]*\n)+/, '').trim())
    .filter(Boolean)) {
    const created = /^CREATE TABLE "(\w+)"/.exec(stmt);
    const added = /^ALTER TABLE "(\w+)" ADD COLUMN "(\w+)"/.exec(stmt);
    const indexed = /^CREATE (?:UNIQUE )?INDEX "(\w+)"/.exec(stmt);
    const extension = /^CREATE EXTENSION IF NOT EXISTS (\w+)/.exec(stmt);
    // An index whose operator class is looked up first is created in a DO block.
    const indexedInBlock = /^DO \$\$[\s\S]*CREATE INDEX IF NOT EXISTS (\w+)/.exec(stmt);
    const fn = /^CREATE FUNCTION "(\w+)"\(\)/.exec(stmt);
    const trigger = /^CREATE (?:CONSTRAINT )?TRIGGER "(\w+)" [\s\S]*? ON "(\w+)"/.exec(stmt);
    // Rows put into a table the migration creates go with the table.
    const seeded = /^INSERT INTO "(\w+)"/.exec(stmt);
    // A constraint of a table the migration creates goes with the table.
    const constrained = /^ALTER TABLE "(\w+)" ADD CONSTRAINT/.exec(stmt);
    // An enum's value cannot be dropped, and a migration that adds one "if not exists" runs again harmlessly.
    const enumValue = /^ALTER TYPE "[\w.]+"(?:\."\w+")? ADD VALUE IF NOT EXISTS/.exec(stmt);
    // Values written into a column the migration adds go with the column.
    const filled = /^UPDATE "(\w+)" SET "(\w+)"/.exec(stmt);
    // A function replaced in place: applied again, it is replaced again with the same body.
    const replaced = /^CREATE OR REPLACE FUNCTION /.test(stmt);
    // Compliance statements given statuses (0012): undone, they are bare texts again.
    const statused = /^UPDATE "company_profile" SET "compliance_statements"/.test(stmt);
    if (created) {
      tables.push(created[1]!);
      statements.push(`drop table "${created[1]}" cascade`);
    } else if (added) {
      columns.add(`${added[1]}.${added[2]}`);
      statements.push(`alter table "${added[1]}" drop column "${added[2]}"`);
    } else if (indexed) statements.push(`drop index if exists "${indexed[1]}"`);
    else if (indexedInBlock) statements.push(`drop index if exists "${indexedInBlock[1]}"`);
    else if (extension) statements.push(`drop extension if exists "${extension[1]}" cascade`);
    else if (fn) statements.push(`drop function if exists "${fn[1]}"() cascade`);
    else if (trigger) statements.push(`drop trigger if exists "${trigger[1]}" on "${trigger[2]}"`);
    else if (seeded && tables.includes(seeded[1]!)) continue;
    else if (constrained && tables.includes(constrained[1]!)) continue;
    else if (enumValue) continue;
    else if (filled && columns.has(`${filled[1]}.${filled[2]}`)) continue;
    else if (replaced) continue;
    else if (statused)
      statements.push(
        `update "company_profile" set "compliance_statements" = (select coalesce(jsonb_agg(case when jsonb_typeof(s) = 'object' then s->'text' else s end order by n), '[]'::jsonb) from jsonb_array_elements("compliance_statements") with ordinality as t(s, n))`,
      );
    else throw new Error(`undo by hand: ${stmt.slice(0, 80)}`);
  }
  return { statements: statements.reverse(), tables };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'drill-'));
const dataDir = path.join(tmp, 'data');
const base = process.env.DATABASE_URL;
const dbName = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
const dbUrl = base ? Object.assign(new URL(base), { pathname: `/${dbName}` }).toString() : '';

async function openDrillDatabase(): Promise<DbHandle> {
  if (!dbUrl) return openDatabase({ dir: path.join(dataDir, 'pglite') });
  const admin = postgres(base!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  await admin.end();
  return openDatabase({ url: dbUrl });
}

function run(script: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: dbUrl, LOG_LEVEL: 'warn' };
    delete env.BLOB_READ_WRITE_TOKEN;
    delete env.AUTH_SECRET;
    const child = spawn(process.execPath, [...LIFTOFF_ONLY, '--import', 'tsx', script, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

let s: TestServer;
let control: ControlChannel;
beforeAll(async () => {
  fs.mkdirSync(path.join(dataDir, 'uploads', 'images'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'auth-secret'), randomBytes(48).toString('base64url'), { mode: 0o600 });
  s = await startTestServer({ database: openDrillDatabase, uploads: { root: path.join(dataDir, 'uploads') } });
  control = await startControlChannel(dataDir, s.store.requestPublish);
});
afterAll(async () => {
  await control?.close();
  await s?.close();
  if (base) {
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

const inquiry = (n: number) => ({
  name: `Buyer ${n}`,
  email: `buyer${n}@agency.gov`,
  message: `We need ${n} laptops by June.`,
  elapsedMs: 12_000,
  website: '',
});

async function submit(from: number, count: number): Promise<void> {
  for (let n = from; n < from + count; n++) {
    const res = await s.request('/api/contact', { method: 'POST', json: inquiry(n) });
    expect(res.status).toBe(201);
  }
}

/** Rows per table, without the publish queue (a restore on Postgres queues a publish for the running servers). */
const counted = async () => {
  const { publish_job: _queued, ...rows } = await countRows(s.db);
  return rows;
};

describe(`[OPS][BACKUP] restore drill (${base ? 'Postgres' : 'embedded database'})`, () => {
  it('backs up while the server runs, restores while it runs, and every table has the rows of the backup', async () => {
    await submit(0, 5);
    fs.writeFileSync(path.join(dataDir, 'uploads', 'images', 'logo.png'), 'not really a png');
    const file = path.join(tmp, 'drill.tar');

    const backup = await run('scripts/db-backup.ts', [file]);
    expect(backup.out).toContain(`Backup written: ${file}`);
    expect(backup.code).toBe(0);
    const listed = execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).split('\n');
    expect(listed).toEqual(
      expect.arrayContaining(['manifest.json', base ? 'database.sql' : 'database.tar.gz', 'uploads/images/logo.png', 'auth-secret']),
    );
    const manifest = JSON.parse(execFileSync('tar', ['-xOf', file, 'manifest.json'], { encoding: 'utf8' })) as BackupManifest;
    expect(manifest.kind).toBe(base ? 'postgres' : 'pglite');
    const { publish_job: _queued, ...atBackup } = manifest.rows;
    expect(atBackup).toEqual(await counted());
    expect(manifest.rows.contact_submission).toBe(5);
    if (base) expect(execFileSync('tar', ['-xOf', file, 'database.sql'], { encoding: 'utf8' })).toContain('PostgreSQL database dump');

    // Life goes on after the backup: more inquiries, a file removed.
    await submit(5, 3);
    fs.rmSync(path.join(dataDir, 'uploads', 'images', 'logo.png'));
    expect((await counted()).contact_submission).toBe(8);

    const restore = await run('scripts/db-restore.ts', [file]);
    expect(restore.code).toBe(0);
    expect(restore.out).toContain('Every table has as many rows as when the backup was made.');
    expect(await counted()).toEqual(atBackup);
    expect(fs.readFileSync(path.join(dataDir, 'uploads', 'images', 'logo.png'), 'utf8')).toBe('not really a png');

    // The same server keeps working on the restored data: new rows get new ids.
    await submit(100, 1);
    expect((await counted()).contact_submission).toBe(6);
    const ids = (await s.db.execute(sql`select count(distinct id)::int as n from contact_submission`)) as unknown;
    const [row] = Array.isArray(ids) ? (ids as { n: number }[]) : (ids as { rows: { n: number }[] }).rows;
    expect(row?.n).toBe(6);
  }, 180_000);

  it.skipIf(Boolean(base))(
    'an embedded database is backed up automatically before a migration changes it',
    async () => {
      const dir = path.join(tmp, 'migrating');
      const first = await openDatabase({ dir: path.join(dir, 'pglite') });
      // As if the last migration had not been applied yet.
      const undo = undoNewestMigration();
      for (const statement of undo.statements) await first.db.execute(sql.raw(statement));
      await first.db.execute(sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`);
      const applied = (await countRows(first.db)).contact_submission;
      await first.close();
      expect(fs.existsSync(path.join(dir, 'backups'))).toBe(false);

      const again = await openDatabase({ dir: path.join(dir, 'pglite') });
      await again.close();
      const [name] = fs.readdirSync(path.join(dir, 'backups'));
      expect(name).toMatch(/^before-migration-\d+-\d{8}T\d{6}Z\.tar$/);
      const manifest = JSON.parse(
        execFileSync('tar', ['-xOf', path.join(dir, 'backups', name!), 'manifest.json'], { encoding: 'utf8' }),
      ) as BackupManifest;
      expect(manifest.reason).toMatch(/^before migrating from \d+ to \d+ migrations$/);
      expect(manifest.migrations + 1).toBe(Number(/to (\d+)/.exec(manifest.reason)![1]));
      expect(manifest.rows.contact_submission).toBe(applied);
      for (const table of undo.tables) expect(manifest.rows[table]).toBeUndefined();

      // Opening an up-to-date database makes no backup.
      await (await openDatabase({ dir: path.join(dir, 'pglite') })).close();
      expect(fs.readdirSync(path.join(dir, 'backups'))).toHaveLength(1);
    },
    120_000,
  );
});
