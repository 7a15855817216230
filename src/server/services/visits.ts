import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import { isbot } from 'isbot';
import type { Db } from '../db/client';
import { contactSubmissions, pageViews, visitSalts, visitTotals } from '../db/schema';
import { getDb } from '../db/client';
import { rowsOf } from '../db/backup';
import { env } from '../env';
import { log } from '../log';
import { now as clockNow } from '../clock';
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

interface PendingView {
  day: string;
  path: string;
  referrer: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  device: Device;
  /** Kept in memory only until the batch is written: the visitor key is made from them then. */
  ip: string;
  userAgent: string;
  at: Date;
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

/** Whether a request for a page is counted at all (ANALYTICS on; not GPC, DNT, a bot or a signed-in session). */
function countable(view: Pick<ViewRequest, 'headers' | 'signedIn'>): boolean {
  if (!env().ANALYTICS || view.signedIn) return false;
  if (header(view.headers, 'sec-gpc') === '1' || header(view.headers, 'dnt') === '1') return false;
  const ua = header(view.headers, 'user-agent');
  return ua !== undefined && ua !== '' && !isbot(ua);
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

let pending: PendingView[] = [];
let timer: NodeJS.Timeout | undefined;
let flushing: Promise<void> | undefined;
const salts = new Map<string, string>();
const FLUSH_AT = 200;
const FLUSH_MS = 2_000;

/** Records a page view (if it is counted): in memory at once, written with the next batch. Never throws. */
export function countView(view: ViewRequest): void {
  try {
    if (!countable(view)) return;
    const ua = header(view.headers, 'user-agent')!;
    const params = new URLSearchParams(view.query);
    const at = clockNow();
    pending.push({
      day: dayOf(at),
      path: view.path.slice(0, 200),
      referrer: referrerHost(header(view.headers, 'referer'), header(view.headers, 'host')),
      utmSource: utm(params, 'utm_source'),
      utmMedium: utm(params, 'utm_medium'),
      utmCampaign: utm(params, 'utm_campaign'),
      device: deviceOf(ua),
      ip: storedAddress(view.ip) ?? view.ip,
      userAgent: ua,
      at,
    });
    if (pending.length >= FLUSH_AT) void flushVisits();
    else timer ??= setTimeout(() => void flushVisits(), FLUSH_MS).unref();
  } catch (err) {
    log.warn('page view not counted', { err });
  }
}

/** Forgets the views not written yet and the salts known (tests: a new database). */
export function forgetVisits(): void {
  clearTimeout(timer);
  timer = undefined;
  pending = [];
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
  return createHash('sha256').update(`${salt}\0${env().SITE_URL}\0${ip}\0${userAgent}`).digest('hex').slice(0, 16);
}

/** Writes the views waiting in memory (a batch a call). A failed write is logged and dropped: counting never holds a visitor. */
export function flushVisits(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  const batch = pending;
  pending = [];
  const previous = flushing ?? Promise.resolve();
  const run = previous.then(async () => {
    if (batch.length === 0) return;
    try {
      const db = await getDb();
      const rows = [];
      for (const v of batch) {
        const salt = await saltFor(db, v.day);
        const { ip, userAgent, ...kept } = v;
        rows.push({ ...kept, visitor: visitorKey(salt, ip, userAgent) });
      }
      await db.insert(pageViews).values(rows);
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
  const address = storedAddress(ip) ?? ip;
  const day = dayOf(clockNow());
  const first =
    pending.find((v) => v.day === day && v.ip === address && v.userAgent === userAgent) ??
    (await db
      .select()
      .from(pageViews)
      .where(and(eq(pageViews.day, day), eq(pageViews.visitor, visitorKey(await saltFor(db, day), address, userAgent))))
      .orderBy(asc(pageViews.id))
      .limit(1)
      .then((rows) => rows[0]));
  if (!first) return null;
  return {
    visitLanding: first.path,
    visitReferrer: first.referrer,
    visitSource: first.utmSource,
    visitMedium: first.utmMedium,
    visitCampaign: first.utmCampaign,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const daysBefore = (day: string, n: number) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS));

/** `(day, visitor)`'s first view: its source, campaign and device. */
const landings = (from: string) => sql`
  select distinct on (day, visitor) day, visitor,
    coalesce(utm_source, referrer, ${DIRECT}) as source, utm_campaign as campaign, device
  from ${pageViews} where day >= ${from}
  order by day, visitor, id`;

/**
 * The daily roll-up (once a day across instances): page views older than 30 days become daily
 * totals and are deleted, totals older than 25 months are deleted, and so are past days' salts.
 */
export async function rollUpVisits(db: Db, opts: { now?: Date } = {}): Promise<{ days: number; views: number } | null> {
  const at = opts.now ?? clockNow();
  const today = dayOf(at);
  return db.transaction(async (tx) => {
    const last = await lockJob<{ day: string }>(tx, 'visits roll-up');
    if (last?.day === today) return null;
    await tx.delete(visitSalts).where(lt(visitSalts.day, today));
    const cutoff = daysBefore(today, RAW_VIEW_DAYS);
    const old = sql`day < ${cutoff}`;
    const all = sql`select day, 'all', '', count(*), count(distinct visitor) from ${pageViews} where ${old} group by day`;
    const paths = sql`select day, 'path', path, count(*), count(distinct visitor) from ${pageViews} where ${old} group by day, path`;
    const firsts = sql`select * from (${landings('0001-01-01')}) f where ${old}`;
    await tx.execute(sql`insert into ${visitTotals} (day, dimension, key, views, visitors) ${all} union all ${paths}
      union all select day, 'source', source, 0, count(*) from (${firsts}) l group by day, source
      union all select day, 'campaign', campaign, 0, count(*) from (${firsts}) l where campaign is not null group by day, campaign
      union all select day, 'device', device, 0, count(*) from (${firsts}) l group by day, device
      on conflict do nothing`);
    const deleted = await tx.delete(pageViews).where(lt(pageViews.day, cutoff)).returning({ day: pageViews.day });
    const keepFrom = new Date(at);
    keepFrom.setUTCMonth(keepFrom.getUTCMonth() - TOTALS_MONTHS);
    await tx.delete(visitTotals).where(lt(visitTotals.day, dayOf(keepFrom)));
    await recordJobRun(tx, 'visits roll-up', { day: today });
    return { days: new Set(deleted.map((d) => d.day)).size, views: deleted.length };
  });
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
  // Days not rolled up yet come from the page views, earlier ones from the totals: the roll-up
  // moves a day from one to the other in one transaction, so a day is in one or the other.
  const [rawDays, rolled, rawPages, rawLandings, inquiries, statement] = await Promise.all([
    rows<{ day: string; views: number; visitors: number }>(
      db,
      sql`select day::text as day, count(*) as views, count(distinct visitor) as visitors from ${pageViews} where day >= ${from} group by day`,
    ),
    db.select().from(visitTotals).where(gte(visitTotals.day, from)),
    rows<Counted>(
      db,
      sql`select path as key, count(*) as views, count(distinct (day, visitor)) as visitors from ${pageViews} where day >= ${from} group by path`,
    ),
    rows<{ source: string; campaign: string | null; device: string; visitors: number }>(
      db,
      sql`select source, campaign, device, count(*) as visitors from (${landings(from)}) l group by source, campaign, device`,
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
