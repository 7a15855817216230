/**
 * Visits counted on our own server (services/visits.ts): what a page view records and what it
 * never does, who is not counted, the daily visitor key, the inquiry's visit, the roll-up and
 * the Visits tab's figures, on the real server and database.
 */
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactSubmissions, pageViews, visitSalts, visitTotals } from '#server/db/schema/index.ts';
import { rollUpVisits } from '#server/services/visits.ts';
import type { Publisher } from '#server/publish/publisher.ts';
import type { SubmissionView } from '#shared/responses.ts';
import type { VisitsReport } from '#shared/visits.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const DAY = 24 * 60 * 60 * 1000;
const releases = `.releases-test-${process.pid}-visits`;

let t: AdminTestContext;
let publisher: Publisher | undefined;

beforeAll(async () => {
  // A proxy on this machine: X-Forwarded-For names the visitor, so each test is its own visitor.
  process.env.TRUST_PROXY = 'true';
  process.env.RELEASES_DIR = releases;
  resetEnvCache();
  t = await startAdminContext({ trustProxy: 'env' });
  publisher = await bundleApi.startPublisher({ store: t.s.store, debounceMs: 100, pollMs: 0 });
  for (const until = Date.now() + 120_000; (await t.s.request('/about')).status !== 200; await new Promise((r) => setTimeout(r, 200)))
    if (Date.now() > until) throw new Error('the pages were never published');
  await bundleApi.flushVisits();
  await t.s.db.delete(pageViews);
}, 600_000);
afterAll(async () => {
  bundleApi.resetClock();
  await publisher?.stop();
  await t?.s.close();
  fs.rmSync(releases, { recursive: true, force: true });
  delete process.env.TRUST_PROXY;
  resetEnvCache();
});

/** A visitor's GET: from `ip` (through the proxy), as `ua` (null: Node's fetch's own, a script's), with any more headers. */
const visit = (path: string, ip: string, ua: string | null, headers: Record<string, string> = {}, method = 'GET') =>
  t.s.request(path, {
    method,
    headers: { 'x-forwarded-for': ip, ...(ua ? { 'user-agent': ua } : {}), ...headers },
  });
/** The page views written so far for one visitor address's tests (by path), after the last batch. */
async function viewsOf(where: (v: typeof pageViews.$inferSelect) => boolean) {
  await bundleApi.flushVisits();
  return (await t.s.db.select().from(pageViews)).filter(where);
}
const report = async (days = 30) => {
  const res = await t.as(t.admin, 'GET', `/api/admin/visits?days=${days}`);
  expect(res.status).toBe(200);
  return (await res.json()) as VisitsReport;
};

describe('[VISITS] counted on our own server, with no cookie', { timeout: 120_000 }, () => {
  it('a page view is counted once: path, referrer host, campaign, device and a day key; never the address, the browser or a cookie', async () => {
    const res = await visit('/about?utm_source=SAM.gov&utm_medium=listing&utm_campaign=fy27', '203.0.113.10', CHROME, {
      referer: 'https://www.sam.gov/opp/123/view?token=secret',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    await res.text();
    // Not page views: an asset, a HEAD, a page that does not exist.
    const html = await (await visit('/', '203.0.113.99', null)).text();
    const asset = /(?:href|src)="(\/[^"]+\.(?:css|js|svg|png|ico|woff2))"/.exec(html)![1]!;
    expect((await visit(asset, '203.0.113.10', CHROME)).status).toBe(200);
    expect((await visit('/about', '203.0.113.10', CHROME, {}, 'HEAD')).status).toBe(200);
    expect((await visit('/no-such-page', '203.0.113.10', CHROME)).status).toBe(404);

    const rows = await viewsOf(() => true);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      path: '/about',
      referrer: 'sam.gov',
      utmSource: 'sam.gov',
      utmMedium: 'listing',
      utmCampaign: 'fy27',
      device: 'desktop',
    });
    expect(rows[0]!.visitor).toMatch(/^[0-9a-f]{16}$/);
    // Nothing stored could name the visitor: no address, no browser string, no full referrer.
    const stored = JSON.stringify(await t.s.db.select().from(pageViews));
    expect(stored).not.toMatch(/203\.0\.113|Chrome|token=secret|\/opp\//);
  });

  it('not counted: Global Privacy Control, Do Not Track, a crawler, a script, a signed-in administrator; our own pages are no referrer', async () => {
    await visit('/services', '203.0.113.20', CHROME, { 'sec-gpc': '1' });
    await visit('/services', '203.0.113.20', CHROME, { dnt: '1' });
    await visit('/services', '203.0.113.20', GOOGLEBOT);
    await visit('/services', '203.0.113.20', null);
    await visit('/services', '203.0.113.20', CHROME, { cookie: t.admin });
    expect(await viewsOf((v) => v.path === '/services')).toHaveLength(0);

    await visit('/services', '203.0.113.21', IPHONE, { referer: `${t.s.url}/about` });
    const [phone] = await viewsOf((v) => v.path === '/services');
    expect(phone).toMatchObject({ referrer: null, device: 'phone' });
  });

  it('a flood of new visitors is not counted past 200 a second; the next second counts again', async () => {
    // A thousand requests, each a new address and browser name, within a few milliseconds from
    // the start of a second (one second boundary at most in between: 200 to 400 counted).
    const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
    await nextSecond();
    try {
      for (let i = 0; i < 1000; i++)
        bundleApi.countView({
          path: '/flood',
          query: '',
          ip: `198.51.100.${i % 250}`,
          headers: { 'user-agent': `${CHROME} ${i}` },
          signedIn: false,
        });
      const flood = await viewsOf((v) => v.path === '/flood');
      expect(flood.length).toBeGreaterThanOrEqual(200);
      expect(flood.length).toBeLessThanOrEqual(400);
      await t.s.db.delete(pageViews);
      await nextSecond();
      await visit('/about', '203.0.113.25', CHROME);
      expect(await viewsOf((v) => v.path === '/about')).toHaveLength(1);
    } finally {
      await t.s.db.delete(pageViews);
      await nextSecond();
    }
  });

  it('the same address and browser are one visitor a day, and another one the next day; a past day’s salt is deleted', async () => {
    await visit('/capabilities', '203.0.113.30', CHROME);
    await visit('/capabilities', '203.0.113.30', CHROME);
    await visit('/capabilities', '203.0.113.31', CHROME);
    bundleApi.advanceClock(DAY);
    try {
      await visit('/capabilities', '203.0.113.30', CHROME);
      const rows = (await viewsOf((v) => v.path === '/capabilities')).sort((x, y) => x.id - y.id);
      // The two views of one visitor, page and day are one row that counts two.
      expect(rows.map((r) => r.views)).toEqual([2, 1, 1]);
      const [a, other, tomorrow] = rows;
      expect(other!.visitor).not.toBe(a!.visitor);
      expect(tomorrow!.visitor).not.toBe(a!.visitor);
      expect(tomorrow!.day > a!.day).toBe(true);

      const salts = await t.s.db.select().from(visitSalts);
      expect(salts.map((s) => s.day).sort()).toEqual([a!.day, tomorrow!.day]);
      await rollUpVisits(t.s.db, { now: new Date(Date.now() + DAY) });
      expect((await t.s.db.select().from(visitSalts)).map((s) => s.day)).toEqual([tomorrow!.day]);
    } finally {
      bundleApi.resetClock();
      await t.s.db.delete(pageViews).where(eq(pageViews.path, '/capabilities'));
      // That roll-up wrote today's totals: the next tests read today live again.
      await t.s.db.delete(visitTotals);
    }
  });

  it('an inquiry after a visit from ?utm_source=linkedin records that visit: in the inbox, in the CSV and in the Visits tab', async () => {
    const ip = '198.51.100.7';
    await visit('/services/federal?utm_source=linkedin&utm_campaign=gsa-schedule', ip, IPHONE, { referer: 'https://www.linkedin.com/' });
    await visit('/contact', ip, IPHONE);
    const sent = await t.s.request('/api/contact', {
      method: 'POST',
      headers: { 'x-forwarded-for': ip, 'user-agent': IPHONE },
      json: { name: 'Dana Contracting', email: 'dana@agency.gov', message: 'Saw your post; please quote.', elapsedMs: 20_000, website: '' },
    });
    expect(sent.status).toBe(201);
    const { id } = (await sent.json()) as { id: number };
    const [row] = await t.s.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id));
    expect(row).toMatchObject({
      visitLanding: '/services/federal',
      visitReferrer: 'linkedin.com',
      visitSource: 'linkedin',
      visitCampaign: 'gsa-schedule',
    });
    const shown = (await (await t.as(t.admin, 'GET', `/api/contact-submissions/${id}`)).json()) as SubmissionView;
    expect(shown.visitSource).toBe('linkedin');
    const csv = await (await t.as(t.admin, 'GET', '/api/contact-submissions/export')).text();
    expect(csv.split('\r\n').find((l) => l.startsWith(`"${id}",`))).toMatch(
      /"\/services\/federal","linkedin\.com","linkedin","","gsa-schedule"$/,
    );

    // An inquiry from someone never counted (Do Not Track) carries no visit.
    const quiet = await t.s.request('/api/contact', {
      method: 'POST',
      headers: { 'x-forwarded-for': '198.51.100.8', 'user-agent': CHROME },
      json: { name: 'Quiet Buyer', email: 'quiet@agency.gov', message: 'Please call me.', elapsedMs: 20_000, website: '' },
    });
    const [untracked] = await t.s.db
      .select()
      .from(contactSubmissions)
      .where(eq(contactSubmissions.id, ((await quiet.json()) as { id: number }).id));
    expect(untracked!.visitLanding).toBeNull();

    await bundleApi.flushVisits();
    const figures = await report(7);
    expect(figures.counting).toBe(true);
    expect(figures.series).toHaveLength(7);
    expect(figures.sources.find((s) => s.source === 'linkedin')).toEqual({ source: 'linkedin', visitors: 1, inquiries: 1, conversion: 1 });
    expect(figures.campaigns.find((c) => c.key === 'gsa-schedule')).toMatchObject({ visitors: 1 });
    expect(figures.pages.find((p) => p.key === '/services/federal')).toMatchObject({ views: 1, visitors: 1 });
    expect(figures.devices.find((d) => d.key === 'phone')!.visitors).toBeGreaterThanOrEqual(1);
    expect(figures.totals.inquiries).toBe(2);
  });

  it('each day that is over becomes daily totals, which the report reads; views older than 30 days and totals older than 25 months go', async () => {
    const day = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
    const old = day(40);
    await t.s.db.insert(pageViews).values([
      { day: old, path: '/about', device: 'desktop', visitor: 'a'.repeat(16), referrer: 'google.com', views: 2 },
      { day: old, path: '/contact', device: 'desktop', visitor: 'a'.repeat(16) },
      { day: old, path: '/about', device: 'phone', visitor: 'b'.repeat(16), utmSource: 'newsletter', utmCampaign: 'spring' },
    ]);
    await t.s.db.insert(visitTotals).values({ day: day(800), dimension: 'all', key: '', views: 9, visitors: 9 });
    await t.s.db.delete(visitSalts);
    // Every day that is over gets its totals (the old one, today); views past 30 days are deleted.
    const first = await rollUpVisits(t.s.db, { now: new Date(Date.now() + 2 * DAY) });
    expect(first).toEqual({ days: 2, deleted: 3 });
    // A roll-up already made that day by another instance: nothing to do until the next day.
    expect(await rollUpVisits(t.s.db, { now: new Date(Date.now() + 2 * DAY) })).toBeNull();

    expect((await t.s.db.select().from(pageViews)).filter((v) => v.day === old)).toHaveLength(0);
    const totals = await t.s.db.select().from(visitTotals).where(eq(visitTotals.day, old));
    const of = (dimension: string, key: string) => totals.find((r) => r.dimension === dimension && r.key === key);
    expect(of('all', '')).toMatchObject({ views: 4, visitors: 2 });
    expect(of('path', '/about')).toMatchObject({ views: 3, visitors: 2 });
    expect(of('source', 'google.com')).toMatchObject({ visitors: 1 });
    expect(of('source', 'newsletter')).toMatchObject({ visitors: 1 });
    expect(of('campaign', 'spring')).toMatchObject({ visitors: 1 });
    expect(of('device', 'phone')).toMatchObject({ visitors: 1 });
    expect(
      await t.s.db
        .select()
        .from(visitTotals)
        .where(eq(visitTotals.day, day(800))),
    ).toHaveLength(0);

    const quarter = await report(90);
    expect(quarter.series.find((d) => d.day === old)).toEqual({ day: old, views: 4, visitors: 2 });
    expect(quarter.sources.find((s) => s.source === 'newsletter')).toMatchObject({ visitors: 1, inquiries: 0, conversion: 0 });
    expect((await report(7)).series.find((d) => d.day === old)).toBeUndefined();
  });

  it('the period is 7, 30 or 90 days; anything else is a 400 with a message', async () => {
    for (const bad of ['0', '31', 'abc', '-7']) {
      const res = await t.as(t.admin, 'GET', `/api/admin/visits?days=${bad}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe('days must be one of 7, 30, 90');
    }
  });

  it('/privacy says what is counted and what is not', async () => {
    const text = await (await t.s.request('/privacy')).text();
    expect(text).toContain('We count visits on our own server, without cookies');
    expect(text).toContain('Global Privacy Control or Do Not Track');
    expect(text).toContain('Page views are kept 30 days; after that only daily totals remain, for 25 months.');
  });

  it('ANALYTICS=off counts nothing, attributes no inquiry, and the report says it is off', async () => {
    process.env.ANALYTICS = 'off';
    resetEnvCache();
    try {
      await visit('/insights?utm_source=off-test', '203.0.113.50', CHROME);
      expect(await viewsOf((v) => v.utmSource === 'off-test')).toHaveLength(0);
      const figures = await report(7);
      expect(figures).toMatchObject({ counting: false, series: [], sources: [] });
    } finally {
      delete process.env.ANALYTICS;
      resetEnvCache();
    }
  });
});
