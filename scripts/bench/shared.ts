import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import postgres from 'postgres';

/** Helpers the benchmark modules share (bench.ts skips this module: it has no `run`). */

/** The middle value (the lower one of the two middle values for an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/**
 * The command of `npm start` (package.json), so that a benchmark measures the server as it really
 * runs, V8 flags and environment settings included: `VAR=value node <args…>` becomes
 * `[process.execPath, [args…], { VAR: 'value' }]`.
 */
export function startCommand(root = process.cwd()): [string, string[], Record<string, string>] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^\w+=/.test(words[0]!)) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  const [bin, ...args] = words;
  if (bin !== 'node') throw new Error(`npm start must run node directly, not ${bin}`);
  return [process.execPath, args.map((a) => (/\.(ts|mjs)$/.test(a) ? path.join(root, a) : a)), env];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The 99th percentile (nearest rank). */
export const p99 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * 0.99) - 1)] ?? 0;

/** Answers of a paced run, by status; anything but a 1xx–4xx (a 5xx or a failed request) is a server error. */
export interface Tally {
  requests: number;
  byStatus: Record<string, number>;
  serverErrors: number;
  latencyMs: number[];
}

export const newTally = (): Tally => ({ requests: 0, byStatus: {}, serverErrors: 0, latencyMs: [] });

/** Sends `next(i)` at `rps` a second for `seconds`, without waiting for answers before the next send. */
export async function paced(rps: number, seconds: number, next: (i: number) => Promise<Response>, tally: Tally): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  const total = Math.round(rps * seconds);
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rps;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const t0 = performance.now();
    const one = next(i)
      .then(async (res) => {
        await res.arrayBuffer();
        return String(res.status);
      })
      .catch((err: Error) => `error ${err.message}`)
      .then((status) => {
        tally.requests++;
        tally.byStatus[status] = (tally.byStatus[status] ?? 0) + 1;
        if (!/^[1-4]\d\d$/.test(status)) tally.serverErrors++;
        tally.latencyMs.push(performance.now() - t0);
        inFlight.delete(one);
      });
    inFlight.add(one);
  }
  await Promise.all(inFlight);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** VmRSS (resident memory) of a process, in kB. */
export function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function childPids(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The process and all its descendants. */
export function treePids(pid: number): number[] {
  return [pid, ...childPids(pid).flatMap(treePids)];
}

/** Resident memory of a process tree, in MB. */
export function treeRssMb(pid: number): number {
  return Math.round(treePids(pid).reduce((sum, p) => sum + rssKb(p), 0) / 1024);
}

/** A new, empty `<db>_<name>` database on the Postgres server of `base` (one left by an earlier run is dropped first): its URL. */
export async function freshPostgres(base: string, name: string): Promise<string> {
  const url = new URL(base);
  const dbName = `${url.pathname.slice(1) || 'postgres'}_${name.replace(/\W/g, '_')}`;
  const sql = postgres(base, { max: 1, onnotice: () => {} });
  await sql.unsafe(`drop database if exists "${dbName}" with (force)`);
  await sql.unsafe(`create database "${dbName}"`);
  await sql.end();
  url.pathname = `/${dbName}`;
  return url.toString();
}

/**
 * The environment of a benchmark's own server: a free port, fresh data (`.<name>-data`,
 * `.releases-<name>`, or a fresh `<db>_<name>` database with DATABASE_URL) and a known first
 * admin (`fixedPort`: that port instead). `cleanUp` removes the directories again.
 */
export async function benchServerEnv(name: string, admin: { username: string; email: string; password: string }, fixedPort?: number) {
  const port = fixedPort ?? (await freePort());
  const databaseUrl = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL, name) : undefined;
  const dataDir = `.${name}-data`;
  const releasesDir = `.releases-${name}`;
  const cleanUp = () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(path.resolve(releasesDir), { recursive: true, force: true });
  };
  cleanUp();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    RELEASES_DIR: releasesDir,
    DATABASE_URL: databaseUrl ?? '',
    ADMIN_USERNAME: admin.username,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    LOG_LEVEL: 'info',
  };
  return { env, base: `http://127.0.0.1:${port}`, databaseUrl, cleanUp };
}

/**
 * Starts the server as `npm start` runs it; resolves once `/` answers 200, with the time that
 * took. Each JSON log line goes to `onLog`.
 */
export async function startServer(
  env: NodeJS.ProcessEnv,
  onLog: (entry: Record<string, unknown>) => void = () => {},
): Promise<{ child: ChildProcess; ms: number }> {
  const [node, args, startEnv] = startCommand();
  const started = performance.now();
  const child = spawn(node, args, { env: { ...env, ...startEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  for (const stream of [child.stdout!, child.stderr!]) {
    let buf = '';
    stream.on('data', (d: Buffer) => {
      buf += d.toString();
      tail = (tail + d.toString()).slice(-3000);
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const line of lines) if (line.startsWith('{')) onLog(JSON.parse(line) as Record<string, unknown>);
    });
  }
  const base = `http://127.0.0.1:${env.PORT}`;
  for (let i = 0; i < 6000; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${tail}`);
    const res = await fetch(`${base}/`).catch(() => undefined);
    if (res?.status === 200) return { child, ms: Math.round(performance.now() - started) };
    await sleep(25);
  }
  throw new Error(`server did not start: ${tail}`);
}

/** Signs in through POST /api/login; the headers an administrator's JSON calls then send. */
export async function adminHeaders(base: string, admin: { username: string; password: string }): Promise<Record<string, string>> {
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ username: admin.username, password: admin.password }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, origin: base, 'content-type': 'application/json' };
}

/** A Markdown table with a column per result (named by its database) and a row per `rows` entry. */
export function printByDatabase<R extends { database: string }>(results: R[], rows: [string, (r: R) => string][]): void {
  const header = ['', ...results.map((r) => r.database)];
  const table = [header, ...rows.map(([label, f]) => [label, ...results.map(f)])];
  const widths = header.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  const line = (row: string[]) => console.log(`| ${row.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`);
  line(table[0]!);
  line(widths.map((w) => '-'.repeat(w)));
  for (const row of table.slice(1)) line(row);
}
