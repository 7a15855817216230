/**
 * The server (`npm start`'s script) stopped while its Postgres does not answer: the stop must not
 * wait on a database that will not answer; it logs `stopped` and exits within 10 seconds.
 * Postgres only: the embedded database lives inside the process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../integration/helpers/db';
import { freePort } from '../integration/helpers/ports';
import { pgProxy } from './helpers/pg-proxy';

const base = process.env.DATABASE_URL;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fault-stop-'));
let database: { url: string; drop: () => Promise<void> } | undefined;
let child: ChildProcess | undefined;
let proxy: ReturnType<typeof pgProxy> | undefined;
afterAll(async () => {
  child?.kill('SIGKILL');
  proxy?.close();
  await database?.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!base)('[FAULT] a stop while the database is gone', () => {
  it('logs stopped and exits within 10 s', async () => {
    database = await createPostgresDatabase(base!);
    const direct = new URL(database.url);
    proxy = pgProxy(direct);
    const proxied = Object.assign(new URL(direct), { hostname: '127.0.0.1', port: String(await proxy.start()) });
    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: proxied.toString(),
        PORT: String(port),
        HOST: '127.0.0.1',
        SITE_URL: '',
        DATA_DIR: path.join(tmp, 'data'),
        RELEASES_DIR: path.join(tmp, 'releases'),
        LOG_LEVEL: 'info',
        CONTACT_NOTIFY_TO: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
    // The start is over once it has said that nobody real is told of new inquiries (a fresh install)
    // and then Ready: the two lines may reach this process in separate reads.
    const started = () => out.includes('New inquiries are not e-mailed to anyone:') && out.includes('Ready: ');
    for (const until = Date.now() + 150_000; !started() && Date.now() < until && child.exitCode === null;) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(out).toContain('Ready: ');
    expect(started(), out).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    // The database's host stops answering: open connections hang, new ones are never answered.
    proxy.silence();
    // A request that needs the database is running when the stop begins.
    const inFlight = fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    const stopAt = Date.now();
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'late'>((r) => setTimeout(() => r('late'), 20_000))]);
    const took = Date.now() - stopAt;
    await inFlight;
    console.log(`stop with the database gone: ${took} ms, exit ${code}`);
    expect(out).toMatch(/\bstopped\b/);
    expect(code).toBe(0);
    expect(took).toBeLessThan(10_000);
  }, 200_000);
});
