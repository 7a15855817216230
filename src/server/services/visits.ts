import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import { isbot } from 'isbot';
import type { Db, Tx } from '../db/client';
import { contactSubmissions, pageViews, visitSalts, visitTotals } from '../db/schema';
import { getDb } from '../db/client';
import { rowsOf } from '../db/backup';
import { env } from '../env';
import { log } from '../log';
import { now as clockNow, nowMs as clockNowMs } from '../clock';
import { storedAddress } from '../client-ip';
import { getPublicDocument } from '../content/public-content';
import { GENERATED_STATEMENT_PATH } from '#shared/documents.ts';
import { DIRECT, RAW_VIEW_DAYS, TOTALS_MONTHS, type SourceRow, type VisitRow, type VisitsReport } from '#shared/visits.ts';
import { lockJob, recordJobRun } from './job-runs';

/*
 * Visits counted on our own server, with no cookie, no script and no third party (docs/decisions/022).
 * A visitor is the first 8 bytes of SHA-256(day's salt ‖ site ‖ address ‖ browser): the salt is
 * random, made by the first instance that counts on a day, shared through the database and deleted
 * once the day is over, so a visitor cannot be followed from one day to the next, and the address
 * and the browser's name are never stored. Not counted: a browser that asks not to be (Sec-GPC: 1,
 * DNT: 1), a known bot or crawler (`isbot`), a signed-in administrator, anything but a page or the
 * capability statement. Views wait in memory and are written in batches.
 */

type Device = 'phone' | 'tablet' | 'desktop';

/** What the server knows of one page view as it answers it. */
export interface ViewRequest {
  path: string;
  /** The request target's query string, without `?` (the campaign's UTM values). */
  query: string;
  /** The client's address (the trusted proxy's X-Forwarded-For, else the socket's). */
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  /** The request carries a session cookie (only ever set for a signed-in account: staff, whose views are not visits). */
  signedIn: boolean;
}

/**
 * A request counted and not written yet, as it came: the hot path only files it (a visitor
 * reading the same page again adds to its `views`); the batch works out the rest when written.
 */
interface PendingView {
  /** When it was first seen (ms): its day. */
  at: number;
  path: string;
  query: string;
  /** Kept in memory only until the batch is written: the visitor key is made from them then. */
  ip: string;
  userAgent: string;
  referer: string | undefined;
  host: string | undefined;
  views: number;
}

const header = (headers: ViewRequest['headers'], name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Phone, tablet or desktop, from the browser's name of itself. */
function deviceOf(userAgent: string): Device {
  if (/iPad|Tablet|PlayBook|Silk|Kindle|Android(?!.*Mobile)/i.test(userAgent)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(userAgent)) return 'phone';
  return 'desktop';
}

/**
 * The browser's name, unless the request asks not to be counted or cannot be (ANALYTICS off, a
 * signed-in session, GPC, DNT, no name). Whether it is a bot's is asked later, and only of a new
 * entry: the list's pattern is long.
 */
function agentToCount(view: Pick<ViewRequest, 'headers' | 'signedIn'>): string | undefined {
  if (!env().ANALYTICS || view.signedIn) return undefined;
  if (view.headers['sec-gpc'] === '1' || view.headers.dnt === '1') return undefined;
  return header(view.headers, 'user-agent') || undefined;
}

/** `isbot` for each browser name seen lately (its pattern is long; a site sees the same few names over and over). */
const botNames = new Map<string, boolean>();
function knownBot(userAgent: string): boolean {
  let bot = botNames.get(userAgent);
  if (bot === undefined) {
    bot = isbot(userAgent);
    if (botNames.size >= 500) botNames.delete(botNames.keys().next().value!);
    botNames.set(userAgent, bot);
  }
  return bot;
}

/** The referring site's host, without `www.`; null for none, an unreadable one, or this site itself. */
function referrerHost(referer: string | undefined, ownHost: string | undefined): string | null {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    const own = ownHost
      ?.toLowerCase()
      .replace(/:\d+$/, '')
      .replace(/^www\./, '');
    const site = new URL(env().SITE_URL).hostname.toLowerCase().replace(/^www\./, '');
    return host === own || host === site || host.length > 100 ? null : host;
  } catch {
    return null;
  }
}

const utm = (params: URLSearchParams, name: string): string | null => {
  const v = params.get(name)?.trim().toLowerCase();
  return v ? v.slice(0, 100) : null;
};

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const DAY_MS = 24 * 60 * 60 * 1000;

/** What a page view records, worked out from the request as it came (at the batch's write). */
function recorded(v: PendingView) {
  const params = v.query ? new URLSearchParams(v.query) : undefined;
  return {
    day: dayOf(new Date(v.at)),
    path: v.path.slice(0, 200),
    referrer: referrerHost(v.referer, v.host),
    utmSource: params ? utm(params, 'utm_source') : null,
    utmMedium: params ? utm(params, 'utm_medium') : null,
    utmCampaign: params ? utm(params, 'utm_campaign') : null,
    device: deviceOf(v.userAgent),
  };
}

let pending = new Map<string, PendingView>();
let timer: NodeJS.Timeout | undefined;
let flushing: Promise<void> | undefined;
const salts = new Map<string, string>();
/** When the day of the views waiting ends (ms). */
let batchDayEnds = 0;
const FLUSH_AT = 1000;
const MAX_WAITING_BATCHES = 10;
let waitingBatches = 0;
let droppedSaid = false;
const FLUSH_MS = 2_000;
/**
 * New entries (a visitor, page or landing not seen in this batch) a second past which requests
 * are a flood, not visitors: a busy small-business site has a few a minute, a load test or an
 * attack with a new address or browser name each request has thousands. Past it the rest of the
 * second is not counted (a log line a minute says how many), so a flood neither costs the
 * serving path a row each nor fills the owner's figures.
 */
const MAX_NEW_A_SECOND = 200;
let floodSecond = 0;
let newThisSecond = 0;
let notCounted = 0;

function sayNotCounted(): void {
  log.warn('page views not counted: more than 200 new visitors or pages a second (a flood)', { views: notCounted });
  notCounted = 0;
}

/** A view not counted in a flood: said in a log line a minute later, with the others. */
function leftOut(): void {
  if (notCounted++ === 0) setTimeout(sayNotCounted, 60_000).unref();
}

/** Records a page view (if it is counted): in memory at once, written with the next batch. Never throws. */
export function countView(view: ViewRequest): void {
  try {
    const ua = agentToCount(view);
    if (ua === undefined) return;
    // The views waiting are all of one day: a new day starts a new batch.
    const now = clockNowMs();
    if (now >= batchDayEnds) {
      if (pending.size > 0) void flushVisits();
      batchDayEnds = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
    }
    // Past the flood's bound, the rest of the second is not counted: nothing more is worked out.
    const second = Math.floor(now / 1000);
    if (second !== floodSecond) [floodSecond, newThisSecond] = [second, 0];
    else if (newThisSecond >= MAX_NEW_A_SECOND) return leftOut();
    const referer = header(view.headers, 'referer');
    const key = `${view.ip}\n${ua}\n${view.path}\n${view.query}\n${referer ?? ''}`;
    // Only counted requests are filed, so a repeat is no bot: it adds to its entry.
    const same = pending.get(key);
    if (same) {
      same.views++;
      return;
    }
    // A new entry; a browser name known as a bot's is left out before it counts as one.
    if (botNames.get(ua) === true) return;
    if (++newThisSecond > MAX_NEW_A_SECOND) return leftOut();
    if (knownBot(ua)) return;
    const host = header(view.headers, 'host');
    pending.set(key, { at: now, path: view.path, query: view.query, ip: view.ip, userAgent: ua, referer, host, views: 1 });
    if (pending.size >= FLUSH_AT) void flushVisits();
    else timer ??= setTimeout(() => void flushVisits(), FLUSH_MS).unref();
  } catch (err) {
    log.warn('page view not counted', { err });
  }
}

/** Forgets the views not written yet and the salts known (tests: a new database). */
export function forgetVisits(): void {
  clearTimeout(timer);
  timer = undefined;
  pending = new Map();
  batchDayEnds = 0;
  newThisSecond = 0;
  salts.clear();
}

/** The day's salt: this process's copy, else the database's, else a new one (the first instance to ask makes it). */
async function saltFor(db: Db, day: string): Promise<string> {
  const known = salts.get(day);
  if (known) return known;
  await db
    .insert(visitSalts)
    .values({ day, salt: randomBytes(32).toString('base64') })
    .onConflictDoNothing();
  const [row] = await db.select({ salt: visitSalts.salt }).from(visitSalts).where(eq(visitSalts.day, day));
  for (const old of salts.keys()) if (old < day) salts.delete(old);
  salts.set(day, row!.salt);
  return row!.salt;
}

function visitorKey(salt: string, ip: string, userAgent: string): string {
  const address = storedAddress(ip) ?? ip;
  return createHash('sha256').update(`${salt}\0${env().SITE_URL}\0${address}\0${userAgent}`).digest('hex').slice(0, 16);
}

/** Writes the views waiting in memory (a batch a call). A failed write is logged and dropped: counting never holds a visitor. */
export function flushVisits(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  const batch = [...pending.values()];
  pending = new Map();
  // While the database is slow or away, batches wait their turn: past a few, new ones are
  // dropped (and said once), so a flood during an outage cannot fill the memory.
  if (waitingBatches >= MAX_WAITING_BATCHES) {
    if (!droppedSaid) log.warn('page views dropped: the database is not keeping up', { views: batch.length });
    droppedSaid = true;
    return flushing ?? Promise.resolve();
  }
  droppedSaid = false;
  waitingBatches++;
  const previous = flushing ?? Promise.resolve();
  const run = previous.then(async () => {
    waitingBatches--;
    if (batch.length === 0) return;
    try {
      const db = await getDb();
      // One row per visitor, page and landing details: a page read again, or a flood of one
      // client's requests, adds to its row's views instead of a row each.
      const rows = new Map<string, typeof pageViews.$inferInsert & { views: number }>();
      for (const v of batch) {
        const row = recorded(v);
        const visitor = visitorKey(await saltFor(db, row.day), v.ip, v.userAgent);
        const key = JSON.stringify([visitor, ...Object.values(row)]);
        const same = rows.get(key);
        if (same) same.views += v.views;
        else rows.set(key, { ...row, visitor, views: v.views });
      }
      // The rows as one JSON parameter: on the embedded database a thousand rows' worth of bind
      // parameters cost about three times as much as the database reading them from JSON.
      const values = [...rows.values()].map((r) => [
        r.day,
        r.path,
        r.referrer,
        r.utmSource,
        r.utmMedium,
        r.utmCampaign,
        r.device,
        r.visitor,
        r.views,
      ]);
      await db.execute(sql`insert into ${pageViews} (day, path, referrer, utm_source, utm_medium, utm_campaign, device, visitor, views)
        select (r->>0)::date, r->>1, r->>2, r->>3, r->>4, r->>5, r->>6, r->>7, (r->>8)::int from json_array_elements(${JSON.stringify(values)}::json) r`);
    } catch (err) {
      log.warn('page views not written', { views: batch.length, err });
    }
  });
  flushing = run.finally(() => {
    if (flushing === tracked) flushing = undefined;
  });
  const tracked = flushing;
  return run;
}

/** The visit an inquiry came from: the first page view of its visitor today, landing page, referrer and campaign. */
export async function visitOf(
  db: Db,
  ip: string,
  userAgent: string | null,
): Promise<{
  visitLanding: string;
  visitReferrer: string | null;
  visitSource: string | null;
  visitMedium: string | null;
  visitCampaign: string | null;
} | null> {
  if (!env().ANALYTICS || !userAgent) return null;
  const day = dayOf(clockNow());
  // The views already written came first; else the first of those waiting in memory.
  const [written] = await db
    .select()
    .from(pageViews)
    .where(and(eq(pageViews.day, day), eq(pageViews.visitor, visitorKey(await saltFor(db, day), ip, userAgent))))
    .orderBy(asc(pageViews.id))
    .limit(1);
  const address = storedAddress(ip) ?? ip;
  const waiting = [...pending.values()].find(
    (v) => v.userAgent === userAgent && (storedAddress(v.ip) ?? v.ip) === address && dayOf(new Date(v.at)) === day,
  );
  const first = written ?? (waiting && recorded(waiting));
  if (!first) return null;
  return {
    visitLanding: first.path,
    visitReferrer: first.referrer,
    visitSource: first.utmSource,
    visitMedium: first.utmMedium,
    visitCampaign: first.utmCampaign,
  };
}

const daysBefore = (day: string, n: number) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS));

/** Each `(day, visitor)`'s first view after the day `after`: its source, campaign and device. */
const landings = (after: string) => sql`
  select distinct on (day, visitor) day, visitor,
    coalesce(utm_source, referrer, ${DIRECT}) as source, utm_campaign as campaign, device
  from ${pageViews} where day > ${after}
  order by day, visitor, id`;

/** The last day whose totals are written (the day before the first page views read live), or null. */
async function rolledThrough(db: Db | Tx): Promise<string | null> {
  const [row] = await db
    .select({ day: sql<string | null>`max(${visitTotals.day})::text` })
    .from(visitTotals)
    .where(eq(visitTotals.dimension, 'all'));
  return row?.day ?? null;
}

/** A day is rolled up once it is over by this long: views of its last seconds are written by then. */
const SETTLE_MS = 10 * 60_000;

/**
 * The daily roll-up (once a day across instances): each day that is over becomes daily totals
 * (the Visits tab reads those, and only today's views live); page views older than 30 days are
 * then deleted, totals older than 25 months too, and so are past days' salts.
 */
export async function rollUpVisits(db: Db, opts: { now?: Date } = {}): Promise<{ days: number; deleted: number } | null> {
  const at = opts.now ?? clockNow();
  const today = dayOf(new Date(at.getTime() - SETTLE_MS));
  const done = await db.transaction(async (tx) => {
    const last = await lockJob<{ day: string }>(tx, 'visits roll-up');
    if (last?.day === today) return null;
    await tx.delete(visitSalts).where(lt(visitSalts.day, dayOf(at)));
    const after = (await rolledThrough(tx)) ?? '0001-01-01';
    const over = sql`day > ${after} and day < ${today}`;
    const all = sql`select day, 'all', '', sum(views), count(distinct visitor) from ${pageViews} where ${over} group by day`;
    const paths = sql`select day, 'path', path, sum(views), count(distinct visitor) from ${pageViews} where ${over} group by day, path`;
    const firsts = sql`select * from (${landings(after)}) f where ${over}`;
    const written = await tx.execute(sql`insert into ${visitTotals} (day, dimension, key, views, visitors) ${all} union all ${paths}
      union all select day, 'source', source, 0, count(*) from (${firsts}) l group by day, source
      union all select day, 'campaign', campaign, 0, count(*) from (${firsts}) l where campaign is not null group by day, campaign
      union all select day, 'device', device, 0, count(*) from (${firsts}) l group by day, device
      on conflict do nothing returning day`);
    const deleted = await tx
      .delete(pageViews)
      .where(lt(pageViews.day, daysBefore(today, RAW_VIEW_DAYS)))
      .returning({ id: pageViews.id });
    const keepFrom = new Date(at);
    keepFrom.setUTCMonth(keepFrom.getUTCMonth() - TOTALS_MONTHS);
    await tx.delete(visitTotals).where(lt(visitTotals.day, dayOf(keepFrom)));
    await recordJobRun(tx, 'visits roll-up', { day: today });
    return { days: new Set(rowsOf<{ day: string }>(written).map((r) => String(r.day))).size, deleted: deleted.length };
  });
  // The deleted rows' space is made reusable now: the embedded database runs no autovacuum, and
  // without this the table would keep every row it ever held.
  if (done && done.deleted > 0)
    await db.execute(sql`vacuum page_view`).catch((err: unknown) => log.warn('vacuum of page_view failed', { err }));
  return done;
}

type Counted = { key: string; visitors: number; views: number };
const num = (v: unknown) => Number(v ?? 0);

/** Adds rows of the same key (the raw days' and the rolled-up days'), biggest first. */
function merged(rows: Counted[], by: 'visitors' | 'views', top = 10): VisitRow[] {
  const sums = new Map<string, VisitRow>();
  for (const r of rows) {
    const s = sums.get(r.key) ?? { key: r.key, visitors: 0, views: 0 };
    s.visitors += num(r.visitors);
    s.views += num(r.views);
    sums.set(r.key, s);
  }
  return [...sums.values()].sort((a, b) => b[by] - a[by] || a.key.localeCompare(b.key)).slice(0, top);
}

const rows = async <T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> => rowsOf<T>(await db.execute(query));

/** The Visits tab's figures for the last `days` days (today included). */
export async function visitsReport(db: Db, days: number): Promise<VisitsReport> {
  const today = dayOf(clockNow());
  const from = daysBefore(today, days - 1);
  const empty = { visitors: 0, views: 0, inquiries: 0, statementDownloads: 0 };
  if (!env().ANALYTICS) return { counting: false, days, series: [], totals: empty, pages: [], sources: [], campaigns: [], devices: [] };
  // Days that are over come from their totals, the days after them (today) from the page views
  // themselves: a day's totals are written once (the roll-up), so no day is read twice.
  const through = (await rolledThrough(db)) ?? '0001-01-01';
  const live = through >= from ? through : daysBefore(from, 1);
  const [rawDays, rolled, rawPages, rawLandings, inquiries, statement] = await Promise.all([
    rows<{ day: string; views: number; visitors: number }>(
      db,
      sql`select day::text as day, sum(views) as views, count(distinct visitor) as visitors from ${pageViews} where day > ${live} group by day`,
    ),
    db
      .select()
      .from(visitTotals)
      .where(and(gte(visitTotals.day, from), lte(visitTotals.day, through))),
    rows<Counted>(
      db,
      sql`select path as key, sum(views) as views, count(distinct (day, visitor)) as visitors from ${pageViews} where day > ${live} group by path`,
    ),
    rows<{ source: string; campaign: string | null; device: string; visitors: number }>(
      db,
      sql`select source, campaign, device, count(*) as visitors from (${landings(live)}) l group by source, campaign, device`,
    ),
    rows<{ source: string | null; inquiries: number }>(
      db,
      sql`select coalesce(visit_source, visit_referrer, case when visit_landing is not null then ${DIRECT} end) as source, count(*) as inquiries
        from ${contactSubmissions} where not is_spam and created_at >= ${`${from}T00:00:00Z`} group by 1`,
    ),
    getPublicDocument(db, 'capability').catch(() => null),
  ]);
  const byDay = new Map<string, { views: number; visitors: number }>();
  for (const r of rawDays) byDay.set(String(r.day), { views: num(r.views), visitors: num(r.visitors) });
  const of = (dimension: string): Counted[] => rolled.filter((r) => r.dimension === dimension);
  for (const r of rolled) if (r.dimension === 'all') byDay.set(r.day, { views: r.views, visitors: r.visitors });
  const series = Array.from({ length: days }, (_, i) => {
    const day = daysBefore(today, days - 1 - i);
    return { day, ...(byDay.get(day) ?? { views: 0, visitors: 0 }) };
  });
  const landingRows = (key: (r: (typeof rawLandings)[number]) => string | null) =>
    rawLandings.flatMap((r) => (key(r) === null ? [] : [{ key: key(r)!, visitors: num(r.visitors), views: 0 }]));
  const pages = merged([...rawPages, ...of('path')], 'views', 1000);
  const statementPaths = new Set([GENERATED_STATEMENT_PATH, statement?.filePath].filter(Boolean));
  const inquiriesBy = new Map(inquiries.filter((r) => r.source !== null).map((r) => [r.source!, num(r.inquiries)]));
  const sources: SourceRow[] = merged([...landingRows((r) => r.source), ...of('source')], 'visitors', 1000).map((s) => {
    const count = inquiriesBy.get(s.key) ?? 0;
    return { source: s.key, visitors: s.visitors, inquiries: count, conversion: s.visitors > 0 ? count / s.visitors : 0 };
  });
  for (const [source, count] of inquiriesBy)
    if (!sources.some((s) => s.source === source)) sources.push({ source, visitors: 0, inquiries: count, conversion: 0 });
  return {
    counting: true,
    days,
    series,
    totals: {
      visitors: series.reduce((n, d) => n + d.visitors, 0),
      views: series.reduce((n, d) => n + d.views, 0),
      inquiries: inquiries.reduce((n, r) => n + num(r.inquiries), 0),
      statementDownloads: pages.filter((p) => statementPaths.has(p.key)).reduce((n, p) => n + p.views, 0),
    },
    pages: pages.slice(0, 10),
    sources: sources.slice(0, 10),
    campaigns: merged([...landingRows((r) => r.campaign), ...of('campaign')], 'visitors'),
    devices: merged([...landingRows((r) => r.device), ...of('device')], 'visitors'),
  };
}
