/**
 * `npm run bench -- visits`: a year of a busy small-business site (1,000,000 page views,
 * BENCH_VISITS_VIEWS; 20,000 visitors a month) on the embedded database, and on Postgres too
 * when DATABASE_URL is set. Each run fills a fresh database with a year of page views as the
 * server writes them, rolls the days older than 30 into daily totals as the daily job does, then
 * starts the real server (as `npm start` runs it) and measures:
 * - the storage the visits take (page views, totals, salts: tables and indexes), goal ≤ 100 MB;
 * - the Visits tab's figures for 7, 30 and 90 days (GET /api/admin/visits): median, goal ≤ 150 ms
 *   for 90 days;
 * - a page's throughput with counting on and off (ANALYTICS), with wrk on a core of its own: one
 *   visitor reading the page over and over, and every request a new visitor (its own browser
 *   name, a Lua script), and the server's user CPU time a request in the same runs (from /proc:
 *   all its threads, the batches' writes included): goal within 5 %. Throughput in runs of a few
 *   seconds on a 2-core machine differs by more than that from one run to the next (the kernel's
 *   time sending the answers varies); user CPU a request far less. Counting's own cost is also timed in-process (countView called 300,000
 *   times, as the server calls it), as a share of a request at the measured throughput.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type DbHandle } from '../../src/server/db/client';
import { contactSubmissions, pageViews } from '../../src/server/db/schema';
import { countView, forgetVisits, rollUpVisits } from '../../src/server/services/visits';
import { adminHeaders, benchServerEnv, median, printByDatabase, sleep, startServer } from './shared';

const ADMIN = { username: 'admin', email: 'admin@example.com', password: 'bench-admin-password' };
const VIEWS = Number(process.env.BENCH_VISITS_VIEWS ?? 1_000_000);
const VISITORS_PER_MONTH = Number(process.env.BENCH_VISITS_VISITORS ?? 20_000);
const WRK_DURATION = process.env.BENCH_WRK_DURATION ?? '5s';
const WRK_ROUNDS = Number(process.env.BENCH_WRK_ROUNDS ?? 8);
const REPEATS = 11;
const DAY = 24 * 60 * 60 * 1000;
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export interface VisitsBenchResult {
  database: string;
  views: number;
  rows: number;
  fillSeconds: number;
  storageMb: number;
  reportMs: Record<'7' | '30' | '90', number>;
  throughput: {
    oneVisitorOn: number;
    oneVisitorOff: number;
    newVisitorsOn: number;
    newVisitorsOff: number;
    /** The server's CPU time a request (µs, medians), the same four. */
    cpuUs: { oneVisitorOn: number; oneVisitorOff: number; newVisitorsOn: number; newVisitorsOff: number };
  } | null;
  /** countView's own time a call, in nanoseconds: one visitor again and again, a new visitor each call. */
  countNs: { oneVisitor: number; newVisitors: number };
}

/** countView's own time a call (ns), over `n` calls as the server makes them; nothing is written (no batch is flushed). */
function countingCost(n = 300_000): VisitsBenchResult['countNs'] {
  const saved = process.env.ANALYTICS;
  process.env.ANALYTICS = 'on';
  const time = (fresh: boolean) => {
    forgetVisits();
    const headers = { host: 'localhost', 'user-agent': CHROME, accept: 'text/html', 'accept-encoding': 'gzip' };
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++)
      countView({
        path: '/about',
        query: '',
        ip: '127.0.0.1',
        headers: fresh ? { ...headers, 'user-agent': `${CHROME} v${i}` } : headers,
        signedIn: false,
      });
    const ns = Number(process.hrtime.bigint() - started) / n;
    forgetVisits();
    return ns;
  };
  try {
    // The first rounds warm the code up; the last is kept.
    let result = { oneVisitor: 0, newVisitors: 0 };
    for (let round = 0; round < 3; round++) result = { oneVisitor: time(false), newVisitors: time(true) };
    return { oneVisitor: Math.round(result.oneVisitor), newVisitors: Math.round(result.newVisitors) };
  } finally {
    if (saved === undefined) delete process.env.ANALYTICS;
    else process.env.ANALYTICS = saved;
  }
}

function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PAGES = [
  '/',
  '/about',
  '/services',
  '/services/federal',
  '/services/manufacturing',
  '/services/consulting',
  '/capabilities',
  '/contact',
  '/insights',
  '/privacy',
  '/capability-statement.pdf',
  ...Array.from({ length: 40 }, (_, i) => `/insights/article-${i + 1}`),
];
/** Where a day's visitors land from: [source (utm_source or referrer), is a campaign, share]. */
const SOURCES: [string | null, boolean, number][] = [
  [null, false, 0.4],
  ['google.com', false, 0.25],
  ['sam.gov', false, 0.12],
  ['linkedin', true, 0.1],
  ['newsletter', true, 0.08],
  ['bing.com', false, 0.05],
];

function pick<T>(rnd: () => number, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)]!;
}

/** Fills a year of page views as the server writes them (a row per visitor, page and day), and a few inquiries that came from them. */
async function fill(handle: DbHandle): Promise<{ rows: number; views: number }> {
  const rnd = random(47);
  const today = Date.now();
  const visitorsPerDay = Math.round((VISITORS_PER_MONTH * 12) / 365);
  const viewsPerVisitor = VIEWS / 365 / visitorsPerDay;
  let rows = 0;
  let views = 0;
  let batch: (typeof pageViews.$inferInsert)[] = [];
  const inquiries: (typeof contactSubmissions.$inferInsert)[] = [];
  const flush = async () => {
    if (batch.length > 0) await handle.db.insert(pageViews).values(batch);
    batch = [];
  };
  for (let d = 364; d >= 0; d--) {
    const day = new Date(today - d * DAY).toISOString().slice(0, 10);
    for (let v = 0; v < visitorsPerDay; v++) {
      const visitor = Math.floor(rnd() * 2 ** 52)
        .toString(16)
        .padStart(16, '0');
      let r = rnd();
      const [source, campaign] = SOURCES.find(([, , share]) => (r -= share) < 0) ?? SOURCES[0]!;
      const device = rnd() < 0.45 ? 'phone' : rnd() < 0.1 ? 'tablet' : 'desktop';
      const count = Math.max(1, Math.round(viewsPerVisitor * 2 * rnd()));
      const pages = new Map<string, number>();
      for (let i = 0; i < count; i++) {
        const page = pick(rnd, PAGES);
        pages.set(page, (pages.get(page) ?? 0) + 1);
      }
      let first = true;
      for (const [page, n] of pages) {
        batch.push({
          day,
          path: page,
          referrer: first && source && !campaign ? source : null,
          utmSource: first && campaign ? source : null,
          utmMedium: first && campaign ? 'social' : null,
          utmCampaign: first && campaign ? `${source}-q${1 + (d % 4)}` : null,
          device,
          visitor,
          views: n,
        });
        first = false;
        rows++;
        views += n;
      }
      if (rnd() < 0.01)
        inquiries.push({
          name: `Buyer ${inquiries.length}`,
          email: `buyer${inquiries.length}@agency.gov`,
          message: 'Please quote.',
          visitLanding: pages.keys().next().value!,
          visitReferrer: source && !campaign ? source : null,
          visitSource: campaign ? source : null,
          createdAt: new Date(today - d * DAY),
        });
      if (batch.length >= 4000) await flush();
    }
  }
  await flush();
  for (let i = 0; i < inquiries.length; i += 1000) await handle.db.insert(contactSubmissions).values(inquiries.slice(i, i + 1000));
  await rollUpVisits(handle.db, { now: new Date(today) });
  // The size the tables keep from day to day: the daily roll-up deletes a day and makes its
  // space reusable, so the table holds about 31 days; here eleven months went at once.
  await handle.db.execute(sql`vacuum full analyze page_view`);
  await handle.db.execute(sql`vacuum full analyze visit_total`);
  return { rows, views };
}

async function storageMb(handle: DbHandle): Promise<number> {
  const result = await handle.db.execute(
    sql`select sum(pg_total_relation_size(c.oid))::bigint as bytes from pg_class c where c.relname in ('page_view', 'visit_total', 'visit_salt') and c.relkind = 'r'`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { bytes: string }[] }).rows) as { bytes: string }[];
  return Math.round((Number(rows[0]!.bytes) / 1024 / 1024) * 10) / 10;
}

/**
 * The process's user CPU time so far (all its threads: the batches' writes included), in seconds.
 * Its system time is left out: most of it is the kernel sending the answers (writev), which
 * differed by a third from one run to the next on the same code, and counting makes no system call.
 */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime, field 14 of stat (11 after the command's name), in clock ticks.
  return Number(fields[11]) / 100;
}

/**
 * Waits until the server has finished what it does after starting (a start with ANALYTICS
 * changed renders the pages again: /privacy says whether visits are counted), up to a minute:
 * until half a second passes with under 2 % of a core used.
 */
async function settled(pid: number): Promise<void> {
  const total = () => {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  for (let waited = 0, last = total(); waited < 60_000; waited += 500) {
    await sleep(500);
    const now = total();
    if (now - last < 0.01) return;
    last = now;
  }
}

/**
 * wrk on core 1 (when there are two), with `script` (Lua) when given: requests a second, and the
 * server's user CPU time a request (µs), which a busy or noisy machine moves far less than throughput.
 */
function wrk(url: string, pid: number, script?: string): { rps: number; cpuUs: number } {
  const before = cpuSeconds(pid);
  const { rps, requests } = wrkRun(url, script);
  return { rps, cpuUs: ((cpuSeconds(pid) - before) / requests) * 1e6 };
}

function wrkRun(url: string, script?: string): { rps: number; requests: number } {
  const args = ['-t1', '-c50', `-d${WRK_DURATION}`, '-H', 'Accept-Encoding: gzip', '-H', `User-Agent: ${CHROME}`];
  if (script) args.push('-s', script);
  const pinned = os.cpus().length > 1 && spawnSync('sh', ['-c', 'command -v taskset']).status === 0;
  const out = spawnSync(pinned ? 'taskset' : 'wrk', pinned ? ['-c', '1', 'wrk', ...args, url] : [...args, url], { encoding: 'utf8' });
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out.stdout ?? '')?.[1] ?? NaN),
    requests: Number(/(\d+) requests in/.exec(out.stdout ?? '')?.[1] ?? NaN),
  };
}

/** Every request a new visitor: a browser name of its own. */
const NEW_VISITORS_LUA = `counter = 0
request = function()
  counter = counter + 1
  wrk.headers["User-Agent"] = "${CHROME} v" .. counter
  return wrk.format(nil, nil)
end
`;

async function measure(kind: 'pglite' | 'postgres'): Promise<VisitsBenchResult> {
  const saved = process.env.DATABASE_URL;
  if (kind === 'pglite') delete process.env.DATABASE_URL;
  const { env, base, databaseUrl, cleanUp } = await benchServerEnv(`bench-visits${kind === 'postgres' ? '-pg' : ''}`, ADMIN);
  if (saved !== undefined) process.env.DATABASE_URL = saved;
  env.LOG_LEVEL = 'warn';
  const t0 = performance.now();
  const handle = await openDatabase(databaseUrl ? { url: databaseUrl } : { dir: path.resolve(env.DATA_DIR!, 'pglite') });
  let filled: { rows: number; views: number };
  let storage: number;
  try {
    filled = await fill(handle);
    storage = await storageMb(handle);
  } finally {
    await handle.close();
  }
  const fillSeconds = Math.round((performance.now() - t0) / 1000);
  const script = path.join(os.tmpdir(), `bench-visits-${process.pid}.lua`);
  fs.writeFileSync(script, NEW_VISITORS_LUA);
  try {
    const { child } = await startServer(env);
    const reportMs = {} as VisitsBenchResult['reportMs'];
    try {
      await sleep(2_000);
      const admin = await adminHeaders(base, ADMIN);
      for (const days of ['7', '30', '90'] as const) {
        const runs: number[] = [];
        for (let i = 0; i < REPEATS; i++) {
          const s = performance.now();
          const res = await fetch(`${base}/api/admin/visits?days=${days}`, { headers: admin });
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`visits report: ${res.status}`);
          runs.push(performance.now() - s);
        }
        reportMs[days] = Math.round(median(runs) * 10) / 10;
      }
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    let throughput: VisitsBenchResult['throughput'] = null;
    if (WRK_ROUNDS > 0 && spawnSync('sh', ['-c', 'command -v wrk']).status === 0) {
      type Run = ReturnType<typeof wrk>;
      const runs = { oneVisitorOn: [] as Run[], oneVisitorOff: [] as Run[], newVisitorsOn: [] as Run[], newVisitorsOff: [] as Run[] };
      const rate = (list: Run[]) => Math.round(median(list.map((r) => r.rps)));
      const cpu = (list: Run[]) => Math.round(median(list.map((r) => r.cpuUs)) * 10) / 10;
      // Alternating server starts with counting on and off, which goes first changing each round
      // (the second start of a pair ran faster in some runs, whichever it was); one discarded
      // round first.
      for (let round = 0; round <= WRK_ROUNDS; round++) {
        for (const analytics of round % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
          const { child } = await startServer({ ...env, ANALYTICS: analytics });
          // The server on core 0, wrk on core 1: single runs otherwise swing by a fifth.
          if (os.cpus().length > 1) spawnSync('taskset', ['-a', '-p', '-c', '0', String(child.pid)], { stdio: 'ignore' });
          try {
            await settled(child.pid!);
            const one = wrk(`${base}/about`, child.pid!);
            const fresh = wrk(`${base}/about`, child.pid!, script);
            if (round > 0) {
              runs[analytics === 'on' ? 'oneVisitorOn' : 'oneVisitorOff'].push(one);
              runs[analytics === 'on' ? 'newVisitorsOn' : 'newVisitorsOff'].push(fresh);
            }
          } finally {
            child.kill('SIGTERM');
            await new Promise((r) => child.once('exit', r));
          }
        }
      }
      throughput = {
        oneVisitorOn: rate(runs.oneVisitorOn),
        oneVisitorOff: rate(runs.oneVisitorOff),
        newVisitorsOn: rate(runs.newVisitorsOn),
        newVisitorsOff: rate(runs.newVisitorsOff),
        cpuUs: {
          oneVisitorOn: cpu(runs.oneVisitorOn),
          oneVisitorOff: cpu(runs.oneVisitorOff),
          newVisitorsOn: cpu(runs.newVisitorsOn),
          newVisitorsOff: cpu(runs.newVisitorsOff),
        },
      };
    }
    return { database: kind, ...filled, fillSeconds, storageMb: storage, reportMs, throughput, countNs: countingCost() };
  } finally {
    fs.rmSync(script, { force: true });
    cleanUp();
  }
}

const pct = (on: number, off: number, unit = 'req/s') => `${on} vs ${off} ${unit} (${(((on - off) / off) * 100).toFixed(1)} %)`;
/** Counting's time a call as a share of a request's at `rps` requests a second. */
const share = (ns: number, rps: number | undefined) => `${ns} ns${rps ? ` (${((ns * rps) / 1e7).toFixed(1)} % of a request)` : ''}`;

export async function run(): Promise<VisitsBenchResult[]> {
  // BENCH_VISITS_DATABASES=postgres (or pglite) measures one of them only.
  const only = process.env.BENCH_VISITS_DATABASES;
  const results: VisitsBenchResult[] = [];
  if (!only || only === 'pglite') results.push(await measure('pglite'));
  if (process.env.DATABASE_URL && (!only || only === 'postgres')) results.push(await measure('postgres'));
  printByDatabase(results, [
    ['page views in the year', (r) => r.views.toLocaleString('en-US')],
    ['rows written', (r) => r.rows.toLocaleString('en-US')],
    ['fill and roll-up', (r) => `${r.fillSeconds} s`],
    ['storage (goal ≤ 100 MB)', (r) => `${r.storageMb} MB`],
    ['Visits tab, 7 days', (r) => `${r.reportMs['7']} ms`],
    ['Visits tab, 30 days', (r) => `${r.reportMs['30']} ms`],
    ['Visits tab, 90 days (goal ≤ 150 ms)', (r) => `${r.reportMs['90']} ms`],
    [
      '/about, one visitor, counting on vs off',
      (r) => (r.throughput ? pct(r.throughput.oneVisitorOn, r.throughput.oneVisitorOff) : 'skipped'),
    ],
    [
      '/about, a new visitor each request, on vs off',
      (r) => (r.throughput ? pct(r.throughput.newVisitorsOn, r.throughput.newVisitorsOff) : 'skipped'),
    ],
    [
      "/about, one visitor, the server's user CPU a request, on vs off (goal ≤ 5 %)",
      (r) => (r.throughput ? pct(r.throughput.cpuUs.oneVisitorOn, r.throughput.cpuUs.oneVisitorOff, 'µs') : 'skipped'),
    ],
    [
      "/about, a new visitor each request, the server's user CPU a request, on vs off",
      (r) => (r.throughput ? pct(r.throughput.cpuUs.newVisitorsOn, r.throughput.cpuUs.newVisitorsOff, 'µs') : 'skipped'),
    ],
    ['counting a view again, its own time', (r) => share(r.countNs.oneVisitor, r.throughput?.oneVisitorOff)],
    ['counting a new visitor each request, its own time', (r) => share(r.countNs.newVisitors, r.throughput?.newVisitorsOff)],
  ]);
  return results;
}
