/**
 * One e2e web server (`serve.mjs <slot>`, one per parallel worker: tests/e2e/servers.mjs): the real
 * `npm start` path on data of its own, fresh each run. With DATABASE_URL it uses a new database
 * `<name>_e2e_<port>` on that server; otherwise PGlite in its data directory.
 */
import fs from 'node:fs';
import postgres from 'postgres';
import { bundleIsCurrent } from '../../scripts/stamp.mjs';
import { e2eDataDir, e2ePort, e2eReleasesDir } from './servers.mjs';

const slot = Number(process.argv[2] ?? 0);
process.env.DATA_DIR = e2eDataDir(slot);
process.env.RELEASES_DIR = e2eReleasesDir(slot);
process.env.PORT = String(e2ePort(slot));
process.env.SITE_URL ??= `http://localhost:${process.env.PORT}`;
process.env.ADMIN_USERNAME ??= 'admin';
process.env.ADMIN_EMAIL ??= 'admin@example.com';
process.env.ADMIN_PASSWORD ??= 'e2e-admin-password';
process.env.LOG_LEVEL ??= 'warn';
// New inquiries reach a real-looking address (kept in the local outbox), so the back office's red
// "not e-mailed to anyone" banner stays out of the other tests; admin-lead-delivery.spec.ts starts
// a server of its own with nobody real to see it.
process.env.CONTACT_NOTIFY_TO ??= 'sales@harbor-federal.com';
// Every spec sends its inquiries to this one server within the hour, and several read the
// notification of theirs: none may land in the hourly digest (contact-flood.test.ts proves the cap).
process.env.LEAD_NOTIFY_PER_HOUR ??= '1000';
// All of them come from this machine's one address: none may be held as spam past the day's 20
// (contact-notification.test.ts proves that allowance).
process.env.CONTACT_INBOX_PER_DAY ??= '1000';
// A short idle sign-out (the idle test moves the page's clock a minute on to see the warning).
process.env.SESSION_IDLE_SECONDS ??= '180';

fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
const base = process.env.DATABASE_URL;
if (base) {
  const url = new URL(base);
  const name = `${url.pathname.slice(1) || 'postgres'}_e2e_${process.env.PORT}`;
  const sql = postgres(base, { max: 1, onnotice: () => {} });
  await sql.unsafe(`drop database if exists "${name}" with (force)`);
  await sql.unsafe(`create database "${name}"`);
  await sql.end();
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
}
// The first server rebuilds a stale server bundle (as `npm start` does); the others wait for it
// rather than build into the same directory at the same time.
if (slot > 0) {
  const deadline = Date.now() + 170_000;
  while (!(await bundleIsCurrent()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1000));
}
// As `npm start` runs it: the server bundle, built first when stale.
await import('../../scripts/start.mjs');
