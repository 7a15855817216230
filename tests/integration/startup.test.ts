import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { verifyPassword } from '#server/password.ts';
import { migrationNames } from '#server/db/backup.ts';
import { openDatabase } from '#server/db/client.ts';
import { accounts, users } from '#server/db/schema/index.ts';
import { treePids } from '../../scripts/bench/shared';
import { LIFTOFF_ONLY } from '../helpers/liftoff';
import { createPostgresDatabase } from './helpers/db';
import { freePort } from './helpers/ports';

/** Runs a script as `npm` would; an `undefined` in `env` removes that variable. */
function run(script: string, env: Record<string, string | undefined>, args: string[] = []): Promise<{ code: number | null; out: string }> {
  const childEnv = Object.fromEntries(
    Object.entries({ ...process.env, LOG_LEVEL: 'warn', ...env }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...LIFTOFF_ONLY, '--import', 'tsx', script, ...args], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * The cases below name their database themselves (the embedded one, `DATABASE_URL: ''`, or an
 * unreachable URL): they run the same whichever database the suite runs on, so they run once, in
 * the run on the embedded database. `npm start` (the last case) runs on the suite's database.
 */
const ownDatabase = describe.skipIf(Boolean(process.env.DATABASE_URL));

ownDatabase('[START] the embedded database', () => {
  it('a second process on the same data directory is refused, naming the directory and PID', async () => {
    const dir = path.join(tmp, 'pglite');
    const owner = await openDatabase({ dir });
    try {
      const { code, out } = await run('scripts/db-migrate.ts', { DATA_DIR: tmp, DATABASE_URL: '' });
      expect(code).not.toBe(0);
      expect(out).toContain(dir);
      expect(out).toContain(`PID ${process.pid}`);
    } finally {
      await owner.close();
    }
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    // Once released, the directory opens again with its data (reuse across restarts).
    const { code, out } = await run('scripts/db-migrate.ts', { DATA_DIR: tmp, DATABASE_URL: '' });
    expect(out).toContain(`Migrations: nothing to apply; the database is up to date (pglite: ${dir}).`);
    expect(code).toBe(0);
  }, 180_000);

  it('db:migrate names the migrations it applied, then says there is nothing to apply', async () => {
    const data = path.join(tmp, 'migrate-fresh');
    const dir = path.join(data, 'pglite');
    const names = migrationNames();
    const first = await run('scripts/db-migrate.ts', { DATA_DIR: data, DATABASE_URL: '' });
    expect(first.code).toBe(0);
    expect(first.out.trim().split('\n')).toEqual([`Migrations applied (pglite: ${dir}): ${names.join(', ')}.`]);
    const second = await run('scripts/db-migrate.ts', { DATA_DIR: data, DATABASE_URL: '' });
    expect(second.code).toBe(0);
    expect(second.out.trim().split('\n')).toEqual([`Migrations: nothing to apply; the database is up to date (pglite: ${dir}).`]);
  }, 180_000);

  it('a stale lock left by a dead process is taken over', async () => {
    const dir = path.join(tmp, 'pglite');
    fs.writeFileSync(`${dir}.lock`, '999999');
    const { code } = await run('scripts/db-migrate.ts', { DATA_DIR: tmp, DATABASE_URL: '' });
    expect(code).toBe(0);
  }, 180_000);

  it('an unreachable DATABASE_URL stops the start with one clear line and a non-zero exit', async () => {
    const { code, out } = await run('scripts/start.ts', { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', PORT: '0' });
    expect(code).toBe(1);
    // The phases so far, the one that failed, then one line saying why.
    const lines = out.trimEnd().split('\n');
    expect(lines.slice(0, -1)).toEqual([
      expect.stringMatching(/^ {2}Build +\d+\.\d s {3}up to date \(built from these sources\)$/),
      expect.stringMatching(/^ {2}Database +\d+\.\d s {3}failed$/),
    ]);
    expect(lines.at(-1)).toMatch(/^Error: Cannot connect to the database at postgres:\/\/nobody@127\.0\.0\.1:1\/none/);
  }, 120_000);
});

ownDatabase('[START] checks before anything is created', () => {
  /** A port some other program listens on. */
  async function busyPort(): Promise<{ port: number; close: () => void }> {
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(0, '0.0.0.0', resolve));
    return { port: (other.address() as net.AddressInfo).port, close: () => other.close() };
  }

  it('a busy port stops the start with "set PORT" before the database, a password or a build', async () => {
    const busy = await busyPort();
    const data = path.join(tmp, 'never-created');
    try {
      const { code, out } = await run('scripts/start.ts', {
        PORT: String(busy.port),
        DATA_DIR: data,
        DATABASE_URL: '',
        ADMIN_PASSWORD: undefined,
      });
      expect(code).toBe(1);
      // At most the build's line comes first (the bundle is checked before the server loads).
      const lines = out.trim().split('\n');
      expect(lines.at(-1)).toBe(
        `Error: Port ${busy.port} is already in use by another program. Stop it, or set PORT to a free port (e.g. PORT=${busy.port + 1} npm start).`,
      );
      expect(lines.slice(0, -1).filter((l) => !/^\s*Build\s/.test(l))).toEqual([]);
      expect(fs.existsSync(data)).toBe(false);
    } finally {
      busy.close();
    }
  }, 120_000);

  it('a DATA_DIR that cannot be made stops the start naming DATA_DIR, before the database', async () => {
    const file = path.join(tmp, 'a-file');
    fs.writeFileSync(file, 'not a directory');
    const data = path.join(file, 'data');
    const { code, out } = await run('scripts/start.ts', { PORT: '0', DATA_DIR: data, DATABASE_URL: '', ADMIN_PASSWORD: undefined });
    expect(code).toBe(1);
    const lines = out.trim().split('\n');
    expect(lines.at(-1)).toBe(
      `Error: DATA_DIR ${data} cannot be used (ENOTDIR): set DATA_DIR to a directory this user can create and write, or fix its permissions.`,
    );
    expect(lines.slice(0, -1).filter((l) => !/^\s*Build\s/.test(l))).toEqual([]);
  }, 120_000);

  it('reads .env from the project root, and the shell environment wins over it', async () => {
    const [inFile, inShell] = [await busyPort(), await busyPort()];
    const root = path.join(tmp, 'app');
    const data = path.join(tmp, 'from-dotenv');
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(root, '.env'), `# a comment\nPORT=${inFile.port}   # taken\nDATA_DIR=${data}\n`);
    try {
      const fromFile = await run('scripts/start.ts', { APP_ROOT: root, PORT: undefined, DATA_DIR: undefined, DATABASE_URL: '' });
      expect(fromFile.code).toBe(1);
      expect(fromFile.out).toContain(`Port ${inFile.port} is already in use`);
      const fromShell = await run('scripts/start.ts', {
        APP_ROOT: root,
        PORT: String(inShell.port),
        DATA_DIR: undefined,
        DATABASE_URL: '',
      });
      expect(fromShell.code).toBe(1);
      expect(fromShell.out).toContain(`Port ${inShell.port} is already in use`);
      expect(fs.existsSync(data)).toBe(false);
    } finally {
      inFile.close();
      inShell.close();
    }
  }, 120_000);

  it('admin:create and admin:reset-password refuse a bad e-mail or password with one plain line', async () => {
    const data = path.join(tmp, 'admin-checks');
    const create = ['--username', 'jane', '--email'];
    const cases: [string, string[], Record<string, string>, string][] = [
      ['scripts/admin-create.ts', [...create, 'notanemail'], {}, 'Error: --email: Please enter a valid email address'],
      [
        'scripts/admin-create.ts',
        [...create, 'jane@example.com', '--password', 'short'],
        {},
        'Error: --password: New password must be at least 8 characters',
      ],
      [
        'scripts/admin-reset-password.ts',
        ['--username', 'jane'],
        { NEW_PASSWORD: 'short' },
        'Error: NEW_PASSWORD: New password must be at least 8 characters',
      ],
    ];
    for (const [script, args, env, expected] of cases) {
      const { code, out } = await run(script, { DATA_DIR: data, DATABASE_URL: '', ...env }, args);
      expect(code).toBe(1);
      expect(out.trim()).toBe(expected);
    }
    // A refused command opens nothing.
    expect(fs.existsSync(data)).toBe(false);
  }, 120_000);

  it('admin:create never gives a new administrator the first start ADMIN_PASSWORD: it generates one, or takes --password', async () => {
    const data = path.join(tmp, 'admin-create');
    const firstStart = 'first-start-secret-9431';
    const generated = await run('scripts/admin-create.ts', { DATA_DIR: data, DATABASE_URL: '', ADMIN_PASSWORD: firstStart }, [
      '--username',
      'maria',
      '--email',
      'maria@harbor-federal.com',
    ]);
    expect(generated.code, generated.out).toBe(0);
    expect(generated.out).toContain('Created admin "maria"');
    const printed = /Password \(shown once[^)]*\): (\S+)/.exec(generated.out)?.[1];
    expect(printed).toBeTruthy();
    expect(printed).not.toBe(firstStart);
    expect(generated.out).not.toContain(firstStart);

    const chosen = await run('scripts/admin-create.ts', { DATA_DIR: data, DATABASE_URL: '', ADMIN_PASSWORD: firstStart }, [
      '--username',
      'lee',
      '--email',
      'lee@harbor-federal.com',
      '--password',
      'Quartz-lantern-meadow-72',
    ]);
    expect(chosen.code, chosen.out).toBe(0);
    expect(chosen.out).toContain('Created admin "lee"');
    expect(chosen.out).not.toContain('Password (shown once');
    const db = await openDatabase({ dir: path.join(data, 'pglite') });
    try {
      const rows = await db.db
        .select({ username: users.username, hash: accounts.password })
        .from(users)
        .innerJoin(accounts, eq(accounts.userId, users.id));
      const hash = (name: string) => rows.find((r) => r.username === name)?.hash ?? '';
      expect(await verifyPassword(hash('maria'), printed!)).toBe(true);
      expect(await verifyPassword(hash('lee'), 'Quartz-lantern-meadow-72')).toBe(true);
      expect(await verifyPassword(hash('maria'), firstStart)).toBe(false);
    } finally {
      await db.close();
    }
  }, 180_000);
});

describe('[START] npm start', () => {
  const cmdline = (pid: number) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      return '';
    }
  };

  it('prints one line per phase with its time, then the address, and the first password last; serves compiled JavaScript (no tsx, no esbuild in the tree); a SIGTERM to npm stops the server within 10 s', async () => {
    const port = await freePort();
    const database = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
    const releases = `.releases-npm-start-${process.pid}`;
    const npm = spawn('npm', ['start'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        // Empty values mean unset, for every variable: SITE_URL then follows PORT.
        SITE_URL: '',
        AUTH_SECRET: '',
        REBUILD_WEBHOOK_URL: '',
        LOG_LEVEL: '',
        DATA_DIR: path.join(tmp, 'npm-start'),
        RELEASES_DIR: releases,
        DATABASE_URL: database?.url ?? '',
        CONTACT_NOTIFY_TO: '',
        // A generated first password: its box is the last thing the start prints.
        ADMIN_PASSWORD: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let stdout = '';
    npm.stdout.on('data', (d) => ((out += d), (stdout += d)));
    npm.stderr.on('data', (d) => (out += d));
    const box = '='.repeat(72);
    try {
      for (const until = Date.now() + 150_000; stdout.split(box).length < 3 && Date.now() < until;) {
        if (npm.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(out).toContain(`Ready: http://localhost:${port}/   (sign in at http://localhost:${port}/auth)`);
      // The bundle is current (built before the tests), a fresh database, the first release.
      const time = String.raw`(\d+\.\d s|\d+ min \d+ s)`;
      const phases = [
        new RegExp(String.raw`^  Build +${time}   up to date \(built from these sources\)$`),
        new RegExp(
          String.raw`^  Database +${time}   ${database ? 'postgres' : 'pglite'}: .+; \d+ migrations applied; first administrator created$`,
        ),
        new RegExp(String.raw`^  Pages +${time}   \d+ pages rendered \(release .+\)$`),
        /^ {2}Ready: /,
      ];
      const lines = stdout.split('\n');
      const at = phases.map((re) => lines.findIndex((l) => re.test(l)));
      expect(at, stdout).not.toContain(-1);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      // The build's detail (Vite's chunk list, its warnings) never reaches the console.
      expect(out).not.toMatch(/\[vite\]|\[build\]|kB │ gzip/);
      // Last: the box with the generated password, after the address.
      const boxed = stdout.slice(stdout.indexOf(box));
      expect(boxed).toMatch(/^={72}\n {2}First administrator created\.\n[\s\S]*password: \S+\n[\s\S]*\n={72}\n+$/);
      expect(stdout.indexOf(box)).toBeGreaterThan(stdout.indexOf('Ready: '));
      const home = await fetch(`http://127.0.0.1:${port}/`);
      expect(home.status).toBe(200);
      // Canonical links follow PORT when SITE_URL is not set.
      expect(await home.text()).toContain(`<link rel="canonical" href="http://localhost:${port}/"`);
      // A fresh install has nobody real to notify (example contact e-mail, administrator at example.com): said once at start.
      await expect.poll(() => out.includes('New inquiries are not e-mailed to anyone:'), { timeout: 10_000 }).toBe(true);
      expect(out.split('New inquiries are not e-mailed to anyone:')).toHaveLength(2);

      const tree = treePids(npm.pid!).map((pid) => ({ pid, cmd: cmdline(pid) }));
      const server = tree.find((p) => p.cmd.includes('scripts/start.mjs') && !p.cmd.startsWith('sh'));
      expect(server, tree.map((p) => p.cmd).join('\n')).toBeDefined();
      expect(tree.filter((p) => /\btsx\b|esbuild/.test(p.cmd))).toEqual([]);

      const stopped = Date.now();
      npm.kill('SIGTERM');
      while (cmdline(server!.pid) && Date.now() - stopped < 10_000) await new Promise((r) => setTimeout(r, 100));
      expect(cmdline(server!.pid), 'the server still runs 10 s after npm got SIGTERM').toBe('');
      // The port is free again.
      await new Promise<void>((resolve, reject) => {
        const probe = net.createServer().once('error', reject);
        probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
      });
    } finally {
      npm.kill('SIGKILL');
      fs.rmSync(releases, { recursive: true, force: true });
      await database?.drop();
    }
  }, 180_000);
});
