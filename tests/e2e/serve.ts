/**
 * The e2e web server: the real `npm start` path on data of its own, fresh each run. With
 * DATABASE_URL it uses a new database `<name>_e2e` on that server; otherwise PGlite in .e2e-data.
 */
import fs from 'node:fs';
import postgres from 'postgres';

process.env.DATA_DIR = '.e2e-data';
process.env.RELEASES_DIR = '.releases-e2e';
process.env.PORT ??= '4399';
process.env.SITE_URL ??= `http://localhost:${process.env.PORT}`;
process.env.ADMIN_USERNAME ??= 'admin';
process.env.ADMIN_EMAIL ??= 'admin@example.com';
process.env.ADMIN_PASSWORD ??= 'e2e-admin-password';
process.env.LOG_LEVEL ??= 'warn';
// A short idle sign-out, so the back office's warning (2 minutes before) comes after one quiet minute.
process.env.SESSION_IDLE_SECONDS ??= '180';

fs.rmSync('.e2e-data', { recursive: true, force: true });
const base = process.env.DATABASE_URL;
if (base) {
  const url = new URL(base);
  const name = `${url.pathname.slice(1) || 'postgres'}_e2e`;
  const sql = postgres(base, { max: 1, onnotice: () => {} });
  await sql.unsafe(`drop database if exists "${name}" with (force)`);
  await sql.unsafe(`create database "${name}"`);
  await sql.end();
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
}
await import('../../scripts/start');
