/**
 * Load and soak. Starts the real server (as `npm start` runs it) on its own port and data, then:
 * 1. Load: `POST /api/contact` at 50 requests a second for 60 s (BENCH_LOAD_RPS,
 *    BENCH_LOAD_SECONDS), each from its own client address (TRUST_PROXY with X-Forwarded-For, as
 *    behind a proxy: buyers of many agencies). Counts the answers by status, the server errors,
 *    the latency, and the stored rows against the 201 answers (they must be equal).
 * 2. Soak: BENCH_SOAK_MINUTES (10) of mixed traffic at the same rate, pages and the public
 *    reads with a contact submission now and then, each from a new client address.
 * The resident memory of the server's whole process tree is taken at idle, at the end of the
 * load and at the end of the soak; the goal is a growth of at most 10 % over the soak.
 */
import fs from 'node:fs';
import path from 'node:path';
import { immediatePerHour } from '#server/services/lead-digest.ts';
import { adminHeaders, benchServerEnv, median, newTally, p99, paced, sleep, startServer, treeRssMb } from './shared';

const ADMIN = { username: 'admin', email: 'admin@example.com', password: 'bench-admin-password' };
const RPS = Number(process.env.BENCH_LOAD_RPS ?? 50);
const LOAD_S = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const SOAK_MIN = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const SOAK_READS = [
  '/',
  '/services',
  '/contact',
  '/api/insights',
  '/api/services',
  '/api/content/header/active',
  '/api/contact-info/active',
];

export interface LoadBenchResult {
  database: string;
  load: { rps: number; seconds: number; byStatus: Record<string, number>; serverErrors: number; p50Ms: number; p99Ms: number };
  acknowledged: number;
  stored: number;
  /** Staff notifications in the local outbox for the load's submissions: once each (goal: lost 0, doubled 0). */
  mails: { expected: number; delivered: number; lost: number; doubled: number };
  soak: { minutes: number; requests: number; byStatus: Record<string, number>; serverErrors: number; p99Ms: number };
  treeRssMb: { idle: number; afterLoad: number; afterSoak: number; soakGrowthPercent: number };
}

/** How many notification mails in the outbox name each of the load's submissions (by its number). */
function mailsBySubmission(outbox: string, marker: string): Map<number, number> {
  const counts = new Map<number, number>();
  const pattern = new RegExp(`${marker}-(\\d+):`, 'g');
  for (const name of fs.existsSync(outbox) ? fs.readdirSync(outbox) : []) {
    if (!name.endsWith('.eml')) continue;
    const text = fs.readFileSync(path.join(outbox, name), 'utf8').replace(/=\r?\n/g, '');
    const seen = new Set([...text.matchAll(pattern)].map((m) => Number(m[1])));
    for (const i of seen) counts.set(i, (counts.get(i) ?? 0) + 1);
  }
  return counts;
}

export async function run(): Promise<LoadBenchResult> {
  const { env, base, databaseUrl, cleanUp } = await benchServerEnv(process.env.DATABASE_URL ? 'bench-load-pg' : 'bench-load', ADMIN);
  env.TRUST_PROXY = 'true';
  env.LOG_LEVEL = 'warn';
  const origin = env.SITE_URL!;
  const { child: server } = await startServer(env);
  try {
    await sleep(5_000);
    const idle = treeRssMb(server.pid!);

    const runId = Date.now().toString(36);
    const contact = (i: number, marker: string) =>
      fetch(`${base}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
        body: JSON.stringify({
          name: 'Load Test',
          email: `buyer${i}@agency.gov`,
          message: `Quote request ${marker}-${i}: forty laptops for the regional office.`,
          elapsedMs: 12_000,
        }),
      });

    const load = newTally();
    await paced(RPS, LOAD_S, (i) => contact(i, `load-${runId}`), load);
    const afterLoad = treeRssMb(server.pid!);

    const admin = await adminHeaders(base, ADMIN);
    // The load's rows, a page at a time (the list is paged; the next page is in the Link header).
    const loadRows: { message: string; isSpam?: boolean }[] = [];
    for (let next: string | null = `/api/contact-submissions?limit=200&q=${encodeURIComponent(`load-${runId}-`)}`; next;) {
      const res: Response = await fetch(`${base}${next}`, { headers: admin });
      loadRows.push(...((await res.json()) as { message: string; isSpam?: boolean }[]));
      next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
    }
    const stored = loadRows.length;
    // Every stored submission not held as suspected spam is told to the staff once: the hour's
    // first 20 one by one, the rest in the hourly digest (which comes after the bench).
    const expectedMails = Math.min(immediatePerHour(), loadRows.filter((r) => !r.isSpam).length);

    const soak = newTally();
    await paced(
      RPS,
      SOAK_MIN * 60,
      (i) =>
        i % 10 === 0
          ? contact(1_000_000 + i, `soak-${runId}`)
          : fetch(`${base}${SOAK_READS[i % SOAK_READS.length]}`, { headers: { 'accept-encoding': 'br' } }),
      soak,
    );
    await sleep(5_000);
    const afterSoak = treeRssMb(server.pid!);
    // The outbox worker has had the soak to send them; wait a little more if it has not.
    const outbox = path.join(env.DATA_DIR!, 'outbox');
    let mails = mailsBySubmission(outbox, `load-${runId}`);
    for (let t = 0; t < 60 && mails.size < expectedMails; t++, mails = mailsBySubmission(outbox, `load-${runId}`)) await sleep(1_000);

    const result: LoadBenchResult = {
      database: databaseUrl ? 'postgres' : 'pglite',
      load: {
        rps: RPS,
        seconds: LOAD_S,
        byStatus: load.byStatus,
        serverErrors: load.serverErrors,
        p50Ms: Math.round(median(load.latencyMs)),
        p99Ms: Math.round(p99(load.latencyMs)),
      },
      acknowledged: load.byStatus['201'] ?? 0,
      stored,
      mails: {
        expected: expectedMails,
        delivered: mails.size,
        lost: Math.max(0, expectedMails - mails.size),
        doubled: [...mails.values()].filter((n) => n > 1).length,
      },
      soak: {
        minutes: SOAK_MIN,
        requests: soak.requests,
        byStatus: soak.byStatus,
        serverErrors: soak.serverErrors,
        p99Ms: Math.round(p99(soak.latencyMs)),
      },
      treeRssMb: { idle, afterLoad, afterSoak, soakGrowthPercent: Math.round(((afterSoak - afterLoad) / afterLoad) * 1000) / 10 },
    };
    printTable(result);
    return result;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    cleanUp();
  }
}

function printTable(r: LoadBenchResult): void {
  const statuses = (s: Record<string, number>) =>
    Object.entries(s)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
  const rows: [string, string][] = [
    ['database', r.database],
    [`POST /api/contact, ${r.load.rps} req/s for ${r.load.seconds} s`, statuses(r.load.byStatus)],
    ['server errors (goal 0)', String(r.load.serverErrors)],
    ['latency p50 / p99', `${r.load.p50Ms} / ${r.load.p99Ms} ms`],
    ['stored rows / 201 answers (goal equal)', `${r.stored} / ${r.acknowledged}`],
    ['staff mails: expected / in the outbox', `${r.mails.expected} / ${r.mails.delivered}`],
    ['mails lost / doubled (goal 0 / 0)', `${r.mails.lost} / ${r.mails.doubled}`],
    [`soak: ${r.soak.minutes} min of mixed traffic`, `${r.soak.requests} requests (${statuses(r.soak.byStatus)})`],
    ['soak server errors (goal 0) / p99', `${r.soak.serverErrors} / ${r.soak.p99Ms} ms`],
    ['tree RSS idle / after load / after soak', `${r.treeRssMb.idle} / ${r.treeRssMb.afterLoad} / ${r.treeRssMb.afterSoak} MB`],
    ['growth over the soak (goal ≤ 10 %)', `${r.treeRssMb.soakGrowthPercent} %`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}
