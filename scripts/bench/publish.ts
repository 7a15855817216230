/**
 * Publish-to-live: from an admin save's response to the new HTML being served, while another
 * process requests pages continuously. Starts the real server (scripts/start.ts) on its own port,
 * data and releases; makes 5 edits of the header title; reports median and worst, failed page
 * requests, the build times, the page count and the peak memory of the server and its build worker.
 *
 * The edit goes through `PATCH /api/content/header/{id}` when that endpoint exists; otherwise it
 * is written straight to Postgres followed by `POST /api/admin/publish` (which needs DATABASE_URL:
 * the embedded database cannot be opened while the server owns it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import postgres from 'postgres';
import { median, startCommand } from './shared';

const RUNS = 5;
const ADMIN = { username: 'admin', email: 'admin@example.com', password: 'bench-admin-password' };
const LOADED_PAGES = ['/', '/404', '/favicon.svg'];
/** Page requests a second from the load process (BENCH_PUBLISH_RPS; 0 = flat out). */
const RPS = Number(process.env.BENCH_PUBLISH_RPS ?? 200);

interface PublishedLog {
  durationMs: number;
  astroMs?: number;
  loadMs?: number;
  pages: number;
}

export interface PublishBenchResult {
  database: string;
  writePath: string;
  runsMs: number[];
  medianMs: number;
  worstMs: number;
  pageRequests: number;
  failedRequests: number;
  startBuildMs: number | null;
  warmBuildMs: { median: number; worst: number };
  pages: number;
  peakMemoryMb: { server: number; buildWorker: number | null };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

/** VmHWM (peak resident memory) of a process, in MB. */
function peakMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

function childPids(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * A separate process that requests pages continuously (4 connections, `rps` requests a second in
 * all; 0: as fast as it can) until told to stop, then prints its counts.
 */
const LOADER = `
const http = require('node:http');
const [base, rps, ...paths] = process.argv.slice(1);
const gap = Number(rps) > 0 ? 4000 / Number(rps) : 0;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
let ok = 0, failed = 0, stop = false; const errors = [];
function one(i) {
  return new Promise((resolve) => {
    const req = http.get(base + paths[i % paths.length], { agent, headers: { 'accept-encoding': 'br' } }, (res) => {
      res.resume();
      res.on('end', () => { if (res.statusCode === 200) ok++; else { failed++; errors.push(res.statusCode); } resolve(); });
    });
    req.on('error', (e) => { failed++; errors.push(e.message); resolve(); });
  });
}
async function loop(k) {
  for (let i = k, next = Date.now(); !stop; i += 4) {
    await one(i);
    next += gap;
    if (gap) await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
  }
}
const loops = [0, 1, 2, 3].map(loop);
process.stdin.on('data', async () => { stop = true; await Promise.all(loops); console.log(JSON.stringify({ ok, failed, errors: errors.slice(0, 5) })); process.exit(0); });
`;

async function startServer(env: NodeJS.ProcessEnv, logs: PublishedLog[], seen: { warm: boolean }): Promise<ChildProcess> {
  const [node, args] = startCommand();
  const child = spawn(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const onLine = (line: string) => {
    if (line.includes(' INFO build worker warm')) seen.warm = true;
    const m = / INFO published (\{.*\})$/.exec(line);
    if (m) logs.push(JSON.parse(m[1]!) as PublishedLog);
  };
  let tail = '';
  for (const stream of [child.stdout!, child.stderr!]) {
    let buf = '';
    stream.on('data', (d: Buffer) => {
      buf += d.toString();
      tail = (tail + d.toString()).slice(-3000);
      const lines = buf.split('\n');
      buf = lines.pop()!;
      lines.forEach(onLine);
    });
  }
  const base = `http://127.0.0.1:${env.PORT}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${tail}`);
    const res = await fetch(`${base}/api/user`).catch(() => undefined);
    if (res) return child;
    await sleep(250);
  }
  throw new Error(`server did not start: ${tail}`);
}

export async function run(): Promise<PublishBenchResult> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let databaseUrl = process.env.DATABASE_URL || undefined;
  if (databaseUrl) {
    const url = new URL(databaseUrl);
    const name = `${url.pathname.slice(1) || 'postgres'}_bench`;
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    await sql.unsafe(`create database "${name}"`);
    await sql.end();
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  fs.rmSync('.bench-data', { recursive: true, force: true });
  fs.rmSync('.releases-bench', { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL: `http://localhost:${port}`,
    DATA_DIR: '.bench-data',
    RELEASES_DIR: '.releases-bench',
    DATABASE_URL: databaseUrl ?? '',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'info',
  };
  const logs: PublishedLog[] = [];
  const seen = { warm: false };
  const server = await startServer(env, logs, seen);
  const loader = spawn(process.execPath, ['-e', LOADER, base, String(RPS), ...LOADED_PAGES], { stdio: ['pipe', 'pipe', 'inherit'] });
  const sql = databaseUrl ? postgres(databaseUrl, { max: 1, onnotice: () => {} }) : undefined;
  try {
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
    });
    if (!login.ok) throw new Error(`sign-in failed: ${login.status}`);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const admin = { cookie, origin: base, 'content-type': 'application/json' };
    const header = (await (await fetch(`${base}/api/content/header/active`)).json()) as { id: number };

    const status = async () =>
      (await (await fetch(`${base}/api/admin/publish/status`, { headers: admin })).json()) as { state: string; lastDurationMs: number };
    const settle = async () => {
      for (let s = await status(); s.state === 'queued' || s.state === 'building'; s = await status()) await sleep(50);
    };
    /** Saves the title the way the back office does; answers which way it went. */
    const save = async (title: string): Promise<string> => {
      const res = await fetch(`${base}/api/content/header/${header.id}`, {
        method: 'PATCH',
        headers: admin,
        body: JSON.stringify({ title }),
      });
      if (res.ok) return 'PATCH /api/content/header/{id}';
      if (res.status !== 404 && res.status !== 405) throw new Error(`saving the header failed: ${res.status} ${await res.text()}`);
      if (!sql) throw new Error('the content endpoints are missing here: run the benchmark with DATABASE_URL (Postgres)');
      await sql`update header_content set title = ${title} where id = ${header.id}`;
      const publish = await fetch(`${base}/api/admin/publish`, { method: 'POST', headers: admin });
      if (publish.status !== 202) throw new Error(`publish failed: ${publish.status}`);
      return 'SQL update + POST /api/admin/publish';
    };

    await settle();
    // As on a server that has been up a while: its build worker has made its warm-up builds.
    for (const t0 = Date.now(); !seen.warm && Date.now() - t0 < 120_000;) await sleep(100);
    const runsMs: number[] = [];
    let writePath = '';
    for (let i = 1; i <= RUNS; i++) {
      const title = `Benchmark title ${i} ${Date.now().toString(36)}`;
      writePath = await save(title);
      const t0 = performance.now();
      for (;;) {
        const html = await (await fetch(`${base}/`, { headers: { 'accept-encoding': 'identity' } })).text();
        if (html.includes(title)) break;
        if (performance.now() - t0 > 120_000) throw new Error('the edit never went live');
        await sleep(10);
      }
      runsMs.push(Math.round(performance.now() - t0));
      await settle();
      await sleep(300);
    }

    loader.stdin!.write('stop\n');
    const loadResult = await new Promise<{ ok: number; failed: number; errors: unknown[] }>((resolve) => {
      let out = '';
      loader.stdout!.on('data', (d) => (out += d));
      loader.on('exit', () => resolve(JSON.parse(out || '{"ok":0,"failed":-1,"errors":[]}')));
    });
    const workerPid = childPids(server.pid!)[0];
    const edits = logs.slice(-RUNS);
    const result: PublishBenchResult = {
      database: databaseUrl ? 'postgres' : 'pglite',
      writePath,
      runsMs,
      medianMs: median(runsMs),
      worstMs: Math.max(...runsMs),
      pageRequests: loadResult.ok + loadResult.failed,
      failedRequests: loadResult.failed,
      startBuildMs: logs.length > RUNS ? logs[0]!.durationMs : null,
      warmBuildMs: { median: median(edits.map((l) => l.durationMs)), worst: Math.max(...edits.map((l) => l.durationMs)) },
      pages: edits.at(-1)?.pages ?? 0,
      peakMemoryMb: { server: peakMb(server.pid) ?? 0, buildWorker: peakMb(workerPid) },
    };
    if (loadResult.failed) console.log('failed page requests:', loadResult.errors);
    printTable(result, edits);
    return result;
  } finally {
    loader.kill();
    await sql?.end();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync('.bench-data', { recursive: true, force: true });
    fs.rmSync(path.resolve('.releases-bench'), { recursive: true, force: true });
  }
}

function printTable(r: PublishBenchResult, edits: PublishedLog[]): void {
  const rows: [string, string][] = [
    ['database / write', `${r.database} / ${r.writePath}`],
    ['publish-to-live, 5 runs (ms)', r.runsMs.join(', ')],
    ['median / worst (goal ≤ 3000 / ≤ 5000)', `${r.medianMs} / ${r.worstMs} ms`],
    ['page requests during the runs / failed', `${r.pageRequests} / ${r.failedRequests} (${RPS || 'max'} req/s)`],
    ['build at start (cold worker)', r.startBuildMs === null ? 'reused release' : `${r.startBuildMs} ms`],
    ['warm build + check + swap, median / worst', `${r.warmBuildMs.median} / ${r.warmBuildMs.worst} ms`],
    ['  of which astro build(), median', `${median(edits.map((e) => e.astroMs ?? 0))} ms`],
    ['pages per release', String(r.pages)],
    ['peak memory: server / build worker', `${r.peakMemoryMb.server} MB / ${r.peakMemoryMb.buildWorker ?? '?'} MB`],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${k.padEnd(w)}  ${v}`);
}
