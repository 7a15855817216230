/**
 * `npm run bench -- leads`: the Contacts tab at 100,000 submissions (BENCH_LEADS_ROWS) and 10,000
 * responses, on the embedded database and, when DATABASE_URL is set, on Postgres too. Each run
 * fills a fresh database (bulk inserts of realistic sizes, a tenth held as spam), checks with
 * EXPLAIN that the list, the search and the counts use their indexes, then starts the real server
 * (as `npm start` runs it) and measures:
 * - the tab's first page (GET /api/contact-submissions?view=inbox): median time when computed
 *   and body size (goals ≤ 50 ms, ≤ 100 KB), then as the poll cache answers it, and the counts;
 * - a search (q, server-side), computed: median (goal ≤ 200 ms), for a word in about 1 % of rows
 *   and a solicitation number found once;
 * - the CSV export of every row: time, size, and the growth of the server's resident memory while
 *   it streams (goal ≤ 50 MB);
 * - a visitor's GET / at BENCH_LEADS_VISITOR_RPS (20) for BENCH_LEADS_SECONDS (30) while the
 *   inbox (first page and counts) is polled once a second: p99 (goal ≤ 20 ms), timed by a client
 *   process of its own (paced-client.ts).
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type DbHandle } from '../../src/server/db/client';
import { contactResponses, contactSubmissions } from '../../src/server/db/schema';
import { submissionsWhere } from '../../src/server/services/contact-submissions';
import { pacedInChild } from './paced-client';
import { adminHeaders, benchServerEnv, median, p99, printByDatabase, sleep, startServer, treeRssMb } from './shared';

const ADMIN = { username: 'admin', email: 'admin@example.com', password: 'bench-admin-password' };
const ROWS = Number(process.env.BENCH_LEADS_ROWS ?? 100_000);
const RESPONSES = Number(process.env.BENCH_LEADS_RESPONSES ?? 10_000);
const VISITOR_RPS = Number(process.env.BENCH_LEADS_VISITOR_RPS ?? 20);
const SECONDS = Number(process.env.BENCH_LEADS_SECONDS ?? 30);
const REPEATS = 21;

export interface LeadsBenchResult {
  database: string;
  rows: number;
  responses: number;
  fillSeconds: number;
  plans: Record<string, string>;
  firstPage: { medianMs: number; bytes: number; cachedMedianMs: number; notModifiedMedianMs: number };
  counts: { medianMs: number };
  search: {
    word: { medianMs: number; total: number };
    solicitation: { medianMs: number; total: number };
    short: { medianMs: number; total: number };
    common: { medianMs: number; total: number };
  };
  exportAll: { seconds: number; megabytes: number; rows: number; rssBeforeMb: number; rssPeakMb: number; rssGrowthMb: number };
  visitor: {
    baselineP99Ms: number;
    whilePolledP99Ms: number;
    whileExportingP99Ms: number;
    whileSearchingP99Ms: number;
    requests: number;
    serverErrors: number;
    polls: number;
    exports: number;
    searches: number;
  };
}

/** A small deterministic generator, so every run stores the same data. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = (
  'laptops monitors toner servers switches routers cables docking stations warranty delivery quote pricing ' +
  'schedule contract agency office regional federal compliant taa gsa sewp naics shipment units license ' +
  'support renewal install training urgent budget fiscal year quarter invoice purchase order requirement ' +
  'specification brand equal replacement inventory warehouse logistics memory storage keyboards headsets'
).split(' ');
const AGENCIES = ['Department of Veterans Affairs', 'Navy Supply', 'GSA Region 4', 'Army Corps of Engineers', 'NASA Goddard', 'USDA'];
/** In about 1 % of messages: the search word of the bench. */
const RARE_WORD = 'thermoplastic';
/** The shortest search the tab runs (two characters) and a word in most messages. */
const SHORT_SEARCH = 'ta';
const COMMON_WORD = 'delivery';

function sentence(rnd: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
}

function submission(i: number, rnd: () => number, start: number) {
  const spam = rnd() < 0.1;
  const first = ['Jane', 'Omar', 'Lucia', 'Wei', 'Priya', 'Tom', 'Aisha', 'Carlos'][i % 8]!;
  const messageWords = spam ? 120 + Math.floor(rnd() * 200) : 30 + Math.floor(rnd() * 120);
  let message = sentence(rnd, messageWords);
  if (rnd() < 0.01) message += ` ${RARE_WORD} enclosures`;
  if (spam) message += ' https://cheap-deals.example/promo';
  return {
    name: `${first} Buyer${i}`,
    email: `${first.toLowerCase()}.${i}@agency${i % 97}.gov`,
    company: rnd() < 0.7 ? AGENCIES[i % AGENCIES.length]! : null,
    phone: rnd() < 0.6 ? `(202) 555-${String(1000 + (i % 9000)).padStart(4, '0')}` : null,
    message,
    status: (['pending', 'in_progress', 'completed'] as const)[i % 3]!,
    isSpam: spam,
    spamReason: spam ? 'over the address allowance' : null,
    buyerType: rnd() < 0.5 ? (['government', 'manufacturer', 'consulting', 'other'] as const)[i % 4]! : null,
    solicitation: rnd() < 0.3 ? `36C10X26Q${String(i).padStart(6, '0')}` : null,
    responseDue: rnd() < 0.2 ? '2026-12-03' : null,
    ipAddress: `10.0.${(i >> 8) & 255}.${i & 255}`,
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
    // Spread over the last year, oldest first.
    createdAt: new Date(start + i * 315),
  };
}

/** Fills the database; answers one stored solicitation number, to search for. */
async function fill(handle: DbHandle): Promise<string> {
  const rnd = random(23);
  const start = Date.now() - ROWS * 315;
  const batch = 1000;
  for (let i = 0; i < ROWS; i += batch) {
    const rows = Array.from({ length: Math.min(batch, ROWS - i) }, (_, k) => submission(i + k, rnd, start));
    await handle.db.insert(contactSubmissions).values(rows);
  }
  const [{ min } = { min: 1 }] = await handle.db.select({ min: sql<number>`min(id)`.mapWith(Number) }).from(contactSubmissions);
  for (let i = 0; i < RESPONSES; i += batch) {
    const rows = Array.from({ length: Math.min(batch, RESPONSES - i) }, () => ({
      submissionId: min + Math.floor(rnd() * ROWS),
      message: `Thank you for your inquiry. ${sentence(rnd, 40 + Math.floor(rnd() * 40))}`,
    }));
    await handle.db.insert(contactResponses).values(rows);
  }
  await handle.db.execute(sql`vacuum analyze contact_submission`);
  await handle.db.execute(sql`vacuum analyze contact_response`);
  const [one] = await handle.db
    .select({ s: contactSubmissions.solicitation })
    .from(contactSubmissions)
    .where(sql`${contactSubmissions.solicitation} is not null and not ${contactSubmissions.isSpam}`)
    .orderBy(contactSubmissions.id)
    .offset(Math.floor(ROWS / 20))
    .limit(1);
  return one?.s ?? '36C10X26Q';
}

/** The indexes each of the tab's queries uses (EXPLAIN of the statements the service runs). */
async function plans(handle: DbHandle): Promise<Record<string, string>> {
  const cs = contactSubmissions;
  const page = (where: ReturnType<typeof submissionsWhere>) =>
    handle.db
      .select({ id: cs.id })
      .from(cs)
      .where(where)
      .orderBy(sql`${cs.createdAt} desc, ${cs.id} desc`)
      .limit(51);
  const queries = {
    'first page': page(submissionsWhere({ view: 'inbox', status: 'all', q: '' })),
    'pending page': page(submissionsWhere({ view: 'inbox', status: 'pending', q: '' })),
    'search page': page(submissionsWhere({ view: 'inbox', status: 'all', q: RARE_WORD })),
    'search total': handle.db
      .select({ n: sql`count(*)` })
      .from(cs)
      .where(submissionsWhere({ view: 'inbox', status: 'all', q: RARE_WORD })),
  };
  const out: Record<string, string> = {};
  for (const [name, query] of Object.entries(queries)) {
    const result = (await handle.db.execute(sql`explain ${query}`)) as unknown as { rows?: Record<string, string>[] } & Record<
      string,
      string
    >[];
    const lines = (result.rows ?? result).map((r) => Object.values(r)[0]!);
    out[name] = [
      ...new Set(
        lines.flatMap((l) =>
          [...l.matchAll(/(?:Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan)(?: Backward)?(?: using (\w+))?(?: on (\w+))?/g)].map(
            (m) => m[0],
          ),
        ),
      ),
    ].join('; ');
  }
  return out;
}

async function timed(url: string, headers: Record<string, string>): Promise<{ ms: number; bytes: number; res: Response }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.arrayBuffer();
  if (!res.ok && res.status !== 304) throw new Error(`${url}: ${res.status} ${Buffer.from(body).toString()}`);
  return { ms: performance.now() - t0, bytes: body.byteLength, res };
}

/**
 * The median of REPEATS requests. `computed`: each repeat asks for a page size of its own (30 to
 * 50 rows), so none is answered from the poll cache and every one runs its queries (a parameter
 * the list does not take would not do: the cache keys answers by the parameters it takes).
 */
async function medianOf(url: string, headers: Record<string, string>, computed = false) {
  const runs = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await timed(computed ? `${url}&limit=${30 + i}` : url, headers));
  return { medianMs: Math.round(median(runs.map((r) => r.ms)) * 10) / 10, last: runs.at(-1)! };
}

async function measure(kind: 'pglite' | 'postgres'): Promise<LeadsBenchResult> {
  const saved = process.env.DATABASE_URL;
  if (kind === 'pglite') delete process.env.DATABASE_URL;
  const { env, base, databaseUrl, cleanUp } = await benchServerEnv(`bench-leads${kind === 'postgres' ? '-pg' : ''}`, ADMIN);
  if (saved !== undefined) process.env.DATABASE_URL = saved;
  env.LOG_LEVEL = 'warn';
  const t0 = performance.now();
  const handle = await openDatabase(databaseUrl ? { url: databaseUrl } : { dir: path.resolve(env.DATA_DIR!, 'pglite') });
  let planned: Record<string, string>;
  let number: string;
  try {
    number = await fill(handle);
    planned = await plans(handle);
  } finally {
    await handle.close();
  }
  const fillSeconds = Math.round((performance.now() - t0) / 1000);
  const { child: server } = await startServer(env);
  try {
    await sleep(3_000);
    const admin = await adminHeaders(base, ADMIN);
    const first = `${base}/api/contact-submissions?view=inbox&status=all`;
    const firstPage = await medianOf(first, admin, true);
    const cachedPage = await medianOf(first, admin);
    const etag = cachedPage.last.res.headers.get('etag') ?? '';
    const notModified = await medianOf(first, { ...admin, 'if-none-match': etag });
    const counts = await medianOf(`${base}/api/contact-submissions/counts`, admin);
    const word = await medianOf(`${first}&q=${RARE_WORD}`, admin, true);
    const solicitation = await medianOf(`${first}&q=${number}`, admin, true);
    const short = await medianOf(`${first}&q=${SHORT_SEARCH}`, admin, true);
    const common = await medianOf(`${first}&q=${COMMON_WORD}`, admin, true);

    // The export of every row, with the server's resident memory sampled while it streams.
    const rssBefore = treeRssMb(server.pid!);
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, treeRssMb(server.pid!))), 50);
    const e0 = performance.now();
    const exportRes = await fetch(`${base}/api/contact-submissions/export`, { headers: admin });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of exportRes.body! as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const b of chunk) if (b === 10) lines++;
    }
    const exportSeconds = (performance.now() - e0) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, treeRssMb(server.pid!));

    // A visitor's home page, alone and then while the inbox is polled once a second; the visitor
    // is a process of its own, so the poller's work here does not delay the visitor's timings.
    const visit = (seconds: number) => pacedInChild(`${base}/`, VISITOR_RPS, seconds, { 'accept-encoding': 'br' });
    const baseline = await visit(Math.min(10, SECONDS));
    let polls = 0;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const p0 = performance.now();
        await Promise.all([timed(first, admin), timed(`${base}/api/contact-submissions/counts`, admin)]);
        polls++;
        await sleep(Math.max(0, 1000 - (performance.now() - p0)));
      }
    })();
    const during = await visit(SECONDS);
    polling = false;
    await poller;

    // The visitor again while an administrator exports every row, over and over, and then while
    // she searches (each search new to the server, the short and common ones included).
    let exports = 0;
    let exporting = true;
    const exporter = (async () => {
      while (exporting) {
        const res = await fetch(`${base}/api/contact-submissions/export`, { headers: admin });
        for await (const _ of res.body! as unknown as AsyncIterable<Uint8Array>) if (!exporting) break;
        exports++;
      }
    })();
    const whileExporting = await visit(SECONDS);
    exporting = false;
    await exporter;
    let searches = 0;
    let searching = true;
    const searcher = (async () => {
      const words = [SHORT_SEARCH, COMMON_WORD, RARE_WORD, number, 'jane', 'agency12', 'gsa'];
      // A page size of its own for each of 200 searches in a row: every one is computed.
      while (searching) await timed(`${first}&q=${words[searches % words.length]}&limit=${1 + (searches++ % 200)}`, admin);
    })();
    const whileSearching = await visit(SECONDS);
    searching = false;
    await searcher;

    return {
      database: kind,
      rows: ROWS,
      responses: RESPONSES,
      fillSeconds,
      plans: planned,
      firstPage: {
        medianMs: firstPage.medianMs,
        bytes: firstPage.last.bytes,
        cachedMedianMs: cachedPage.medianMs,
        notModifiedMedianMs: notModified.medianMs,
      },
      counts: { medianMs: counts.medianMs },
      search: {
        word: { medianMs: word.medianMs, total: Number(word.last.res.headers.get('x-total-count')) },
        solicitation: { medianMs: solicitation.medianMs, total: Number(solicitation.last.res.headers.get('x-total-count')) },
        short: { medianMs: short.medianMs, total: Number(short.last.res.headers.get('x-total-count')) },
        common: { medianMs: common.medianMs, total: Number(common.last.res.headers.get('x-total-count')) },
      },
      exportAll: {
        seconds: Math.round(exportSeconds * 10) / 10,
        megabytes: Math.round(bytes / 1e5) / 10,
        rows: lines - 1,
        rssBeforeMb: rssBefore,
        rssPeakMb: peak,
        rssGrowthMb: peak - rssBefore,
      },
      visitor: {
        baselineP99Ms: Math.round(p99(baseline.latencyMs) * 10) / 10,
        whilePolledP99Ms: Math.round(p99(during.latencyMs) * 10) / 10,
        whileExportingP99Ms: Math.round(p99(whileExporting.latencyMs) * 10) / 10,
        whileSearchingP99Ms: Math.round(p99(whileSearching.latencyMs) * 10) / 10,
        requests: during.requests + whileExporting.requests + whileSearching.requests,
        serverErrors: during.serverErrors + baseline.serverErrors + whileExporting.serverErrors + whileSearching.serverErrors,
        polls,
        exports,
        searches,
      },
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    cleanUp();
  }
}

export async function run(): Promise<LeadsBenchResult[]> {
  // BENCH_LEADS_DATABASES=postgres (or pglite) measures one of them only.
  const only = process.env.BENCH_LEADS_DATABASES;
  const results: LeadsBenchResult[] = [];
  if (!only || only === 'pglite') results.push(await measure('pglite'));
  if (process.env.DATABASE_URL && (!only || only === 'postgres')) results.push(await measure('postgres'));
  printTable(results);
  return results;
}

function printTable(results: LeadsBenchResult[]): void {
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const rows: [string, (r: LeadsBenchResult) => string][] = [
    ['submissions / responses', (r) => `${r.rows.toLocaleString('en-US')} / ${r.responses.toLocaleString('en-US')}`],
    ['first page, computed, median (goal ≤ 50 ms)', (r) => `${r.firstPage.medianMs} ms ${mark(r.firstPage.medianMs <= 50)}`],
    ['first page, body (goal ≤ 100 KB)', (r) => `${kb(r.firstPage.bytes)} ${mark(r.firstPage.bytes <= 100 * 1024)}`],
    ['first page, from the poll cache, median', (r) => `${r.firstPage.cachedMedianMs} ms`],
    ['first page again, 304, median', (r) => `${r.firstPage.notModifiedMedianMs} ms`],
    ['counts, from the poll cache, median', (r) => `${r.counts.medianMs} ms`],
    [
      `search "${RARE_WORD}", computed, median (goal ≤ 200 ms)`,
      (r) => `${r.search.word.medianMs} ms, ${r.search.word.total} found ${mark(r.search.word.medianMs <= 200)}`,
    ],
    [
      'search a solicitation number, computed, median (goal ≤ 200 ms)',
      (r) => `${r.search.solicitation.medianMs} ms, ${r.search.solicitation.total} found ${mark(r.search.solicitation.medianMs <= 200)}`,
    ],
    [
      `search "${SHORT_SEARCH}" (two characters), computed, median (goal ≤ 300 ms)`,
      (r) => `${r.search.short.medianMs} ms, ${r.search.short.total} found ${mark(r.search.short.medianMs <= 300)}`,
    ],
    [
      `search "${COMMON_WORD}" (in most rows), computed, median (goal ≤ 300 ms)`,
      (r) => `${r.search.common.medianMs} ms, ${r.search.common.total} found ${mark(r.search.common.medianMs <= 300)}`,
    ],
    [
      'export of all rows: time, size',
      (r) => `${r.exportAll.seconds} s, ${r.exportAll.megabytes} MB, ${r.exportAll.rows.toLocaleString('en-US')} rows`,
    ],
    ['export: server RSS before / peak', (r) => `${r.exportAll.rssBeforeMb} / ${r.exportAll.rssPeakMb} MB`],
    ['export: RSS growth (goal ≤ 50 MB)', (r) => `${r.exportAll.rssGrowthMb} MB ${mark(r.exportAll.rssGrowthMb <= 50)}`],
    [`GET / p99 at ${VISITOR_RPS}/s, alone`, (r) => `${r.visitor.baselineP99Ms} ms`],
    [`GET / p99, inbox polled 1/s (goal ≤ 20 ms)`, (r) => `${r.visitor.whilePolledP99Ms} ms ${mark(r.visitor.whilePolledP99Ms <= 20)}`],
    [
      'GET / p99, all rows exported again and again (goal ≤ 50 ms)',
      (r) => `${r.visitor.whileExportingP99Ms} ms, ${r.visitor.exports} exports ${mark(r.visitor.whileExportingP99Ms <= 50)}`,
    ],
    [
      'GET / p99, one search after another (goal ≤ 50 ms)',
      (r) => `${r.visitor.whileSearchingP99Ms} ms, ${r.visitor.searches} searches ${mark(r.visitor.whileSearchingP99Ms <= 50)}`,
    ],
    ['server errors', (r) => String(r.visitor.serverErrors)],
  ];
  printByDatabase(results, rows);
  for (const r of results) for (const [name, plan] of Object.entries(r.plans)) console.log(`${r.database} plan, ${name}: ${plan}`);
}
