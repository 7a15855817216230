/**
 * Publish-to-live: from an admin save's response to the new HTML being served, while another
 * process requests pages continuously. Starts the real server (as `npm start` does) on its own port,
 * data and releases; makes 5 edits of the header title; reports median and worst, failed page
 * requests, the render times, the page count, how long the server took to answer (fresh data, then
 * a restart on the same data) and the resident memory of the whole process tree: at idle after the
 * start and one publish, and at its peak during the publishes.
 *
 * The edit goes through `PATCH /api/content/header/{id}` when that endpoint exists; otherwise it
 * is written straight to Postgres followed by `POST /api/admin/publish` (which needs DATABASE_URL:
 * the embedded database cannot be opened while the server owns it).
 */
import { spawn } from 'node:child_process';
import postgres from 'postgres';
import { adminHeaders, benchServerEnv, median, sleep, startServer, treePids, treeRssMb } from './shared';

const RUNS = 5;
const ADMIN = { username: 'admin', email: 'admin@example.com', password: 'bench-admin-password' };
const LOADED_PAGES = ['/', '/about', '/favicon.svg'];
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
  publishMs: { median: number; worst: number };
  pages: number;
  /** From spawning `npm start`'s command until the site answered: fresh data, then a restart on it. */
  startMs: { fresh: number; restart: number };
  /** Resident memory of the server and every process it started. */
  treeRssMb: { idle: number; peak: number; processes: number };
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

export async function run(): Promise<PublishBenchResult> {
  const { env, base, databaseUrl, cleanUp } = await benchServerEnv('bench', ADMIN);
  const logs: PublishedLog[] = [];
  // A first start on fresh data (migrations, seed, the first release), stopped, then the one measured on.
  const fresh = await startServer(env);
  fresh.child.kill('SIGTERM');
  await new Promise((r) => fresh.child.once('exit', r));
  const { child: server, ms: restartMs } = await startServer(env, (entry) => {
    if (entry.msg === 'published') logs.push(entry as unknown as PublishedLog);
  });
  const loader = spawn(process.execPath, ['-e', LOADER, base, String(RPS), ...LOADED_PAGES], { stdio: ['pipe', 'pipe', 'inherit'] });
  const sql = databaseUrl ? postgres(databaseUrl, { max: 1, onnotice: () => {} }) : undefined;
  try {
    const admin = await adminHeaders(base, ADMIN);
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
    // Idle after the start and one publish.
    await save(`Benchmark warm-up ${Date.now().toString(36)}`);
    await sleep(200);
    await settle();
    await sleep(2000);
    const idleRss = treeRssMb(server.pid!);
    let peakRss = idleRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRssMb(server.pid!))), 20);
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

    clearInterval(sampler);
    loader.stdin!.write('stop\n');
    const loadResult = await new Promise<{ ok: number; failed: number; errors: unknown[] }>((resolve) => {
      let out = '';
      loader.stdout!.on('data', (d) => (out += d));
      loader.on('exit', () => resolve(JSON.parse(out || '{"ok":0,"failed":-1,"errors":[]}')));
    });
    const edits = logs.slice(-RUNS);
    const result: PublishBenchResult = {
      database: databaseUrl ? 'postgres' : 'pglite',
      writePath,
      runsMs,
      medianMs: median(runsMs),
      worstMs: Math.max(...runsMs),
      pageRequests: loadResult.ok + loadResult.failed,
      failedRequests: loadResult.failed,
      startBuildMs: logs.length > RUNS + 1 ? logs[0]!.durationMs : null,
      publishMs: { median: median(edits.map((l) => l.durationMs)), worst: Math.max(...edits.map((l) => l.durationMs)) },
      pages: edits.at(-1)?.pages ?? 0,
      startMs: { fresh: fresh.ms, restart: restartMs },
      treeRssMb: { idle: idleRss, peak: peakRss, processes: treePids(server.pid!).length },
    };
    if (loadResult.failed) console.log('failed page requests:', loadResult.errors);
    printTable(result, edits);
    return result;
  } finally {
    loader.kill();
    await sql?.end();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    cleanUp();
  }
}

function printTable(r: PublishBenchResult, edits: PublishedLog[]): void {
  const rows: [string, string][] = [
    ['database / write', `${r.database} / ${r.writePath}`],
    ['publish-to-live, 5 runs (ms)', r.runsMs.join(', ')],
    ['median / worst (goal ≤ 300 / ≤ 1000)', `${r.medianMs} / ${r.worstMs} ms`],
    ['page requests during the runs / failed', `${r.pageRequests} / ${r.failedRequests} (${RPS || 'max'} req/s)`],
    ['release at start', r.startBuildMs === null ? 'reused release' : `${r.startBuildMs} ms`],
    ['render + check + swap, median / worst', `${r.publishMs.median} / ${r.publishMs.worst} ms`],
    ['  of which rendering, median', `${median(edits.map((e) => e.astroMs ?? 0))} ms`],
    ['pages per release', String(r.pages)],
    ['start until / answers: fresh data / restart', `${r.startMs.fresh} / ${r.startMs.restart} ms`],
    ['tree RSS: idle / peak during publishes', `${r.treeRssMb.idle} MB / ${r.treeRssMb.peak} MB (${r.treeRssMb.processes} processes)`],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${k.padEnd(w)}  ${v}`);
}
