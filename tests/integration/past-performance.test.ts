import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, pastPerformance } from '#server/db/schema/index.ts';
import { listJobs } from '#server/publish/jobs.ts';
import { listActivePastPerformanceNewestFirst } from '#server/services/past-performance.ts';
import { readPdf } from './helpers/pdf';
import { publishingAdminContext } from './helpers/admin';

const t = publishingAdminContext('past-performance');

const PATH = '/api/admin/past-performance';
const rows = () => t.s.db.select().from(pastPerformance).orderBy(pastPerformance.id);
const ENTRY = {
  customer: 'Department of Veterans Affairs',
  title: 'Conference-room displays for three medical centers',
  summary: 'Sourced, delivered and installed 42 displays from an authorized distributor, on time and TAA compliant.',
  periodStart: '2023-03',
  periodEnd: '',
  contractType: 'Firm-fixed-price purchase order',
  value: '$1,250,000',
  showValue: true,
  naicsCode: '423430',
};

async function settled(timeoutMs = 150_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const s = (await (await t.as(t.admin, 'GET', '/api/admin/publish/status')).json()) as { state: string };
    if (s.state === 'idle' || s.state === 'failed') return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('publishing did not settle');
}
const page = async (p: string) => (await t.s.request(p)).text();

describe('[API][ADMIN][PAST PERFORMANCE] admin only', () => {
  it.each([
    ['GET', PATH, undefined],
    ['POST', PATH, ENTRY],
    ['PATCH', `${PATH}/1`, { title: 'x' }],
    ['DELETE', `${PATH}/1`, undefined],
  ])('%s %s: 401 signed out, 403 for a non-admin, nothing changed', async (method, url, body) => {
    const before = await rows();
    const out = await t.s.request(url, { method, ...(body ? { json: body } : {}) });
    expect(out.status).toBe(401);
    expect((await out.json()).message).toBe('Authentication required');
    const user = await t.as(t.user, method, url, body);
    expect(user.status).toBe(403);
    expect(await rows()).toEqual(before);
  });
});

describe('[API][ADMIN][PAST PERFORMANCE] validation', () => {
  it.each([
    ['no customer', { customer: '' }, 'Customer is required'],
    ['no title', { title: '  ' }, 'Title is required'],
    ['no summary', { summary: '' }, 'Summary is required'],
    ['a summary over 600 characters', { summary: 'x'.repeat(601) }, 'Must be at most 600 characters'],
    ['a customer over 200 characters', { customer: 'x'.repeat(201) }, 'Must be at most 200 characters'],
    ['no start month', { periodStart: '' }, 'Start month is required'],
    ['a start that is not a month', { periodStart: '2023-13' }, 'Start month must be a month written YYYY-MM, e.g. 2023-03'],
    ['an end that is not a month', { periodEnd: 'March 2024' }, 'End month must be a month written YYYY-MM, e.g. 2023-03'],
    ['an end before the start', { periodEnd: '2023-02' }, 'End month cannot be before the start month'],
    ['a value that is not dollars', { value: '1.5 million' }, 'Value must be a whole dollar amount, e.g. 1,250,000'],
    ['a negative value', { value: -5 }, 'Value must be a whole dollar amount, e.g. 1,250,000'],
    ['a NAICS code of 5 digits', { naicsCode: '42343' }, 'NAICS code must be 6 digits'],
    ['a contract type over 120 characters', { contractType: 'x'.repeat(121) }, 'Must be at most 120 characters'],
  ])('POST with %s: 400 with the message, nothing stored', async (_name, change, message) => {
    const before = await rows();
    const res = await t.as(t.admin, 'POST', PATH, { ...ENTRY, ...change });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect(await rows()).toEqual(before);
  });

  it('a summary of exactly 600 characters is accepted; a PATCH moving the end before the stored start is refused', async () => {
    const res = await t.as(t.admin, 'POST', PATH, { ...ENTRY, summary: 'y'.repeat(600), periodEnd: '2024-06', isActive: false });
    expect(res.status).toBe(201);
    const created = await res.json();
    const bad = await t.as(t.admin, 'PATCH', `${PATH}/${created.id}`, { periodEnd: '2022-12', version: created.version });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('End month cannot be before the start month');
    const tooLong = await t.as(t.admin, 'PATCH', `${PATH}/${created.id}`, { summary: 'z'.repeat(601) });
    expect(tooLong.status).toBe(400);
    const [row] = await t.s.db.select().from(pastPerformance).where(eq(pastPerformance.id, created.id));
    expect(row).toMatchObject({ periodEnd: '2024-06', version: 1 });
    expect((await t.as(t.admin, 'DELETE', `${PATH}/${created.id}`)).status).toBe(200);
  });
});

describe('[API][ADMIN][PAST PERFORMANCE] create, edit, delete, publish', { timeout: 300_000 }, () => {
  it('stores the entry (value in whole dollars, no end = ongoing), audits it and publishes the pages that show it', async () => {
    const res = await t.as(t.admin, 'POST', PATH, ENTRY);
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ value: 1_250_000, periodEnd: null, contractType: ENTRY.contractType, isActive: true, version: 1 });
    await settled();
    const job = (await listJobs(t.s.db)).at(-1)!;
    expect(job.status).toBe('succeeded');
    expect(job.reason).toMatch(/^past-performance \d+ (created|deleted)/);
    for (const p of ['/services/federal', '/about', '/']) {
      const html = await page(p);
      expect(html, p).toContain('Conference-room displays for three medical centers');
      expect(html, p).toContain('Mar 2023 – present');
    }
    expect(await page('/services/federal')).toContain('$1,250,000');
    // The generated capability statement lists it too.
    const pdf = await readPdf(new Uint8Array(await (await t.s.request('/capability-statement.pdf')).arrayBuffer()));
    expect(pdf.text).toContain('Conference-room displays for three medical centers');
    expect(pdf.text).toContain('Mar 2023 – present');

    // The value is shown only while the owner says so.
    const hidden = await t.as(t.admin, 'PATCH', `${PATH}/${created.id}`, { showValue: false, version: 1 });
    expect(hidden.status).toBe(200);
    await settled();
    expect(await page('/services/federal')).not.toContain('$1,250,000');

    const audit = await t.s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'past-performance'), eq(auditLog.entityId, String(created.id))))
      .orderBy(auditLog.id);
    expect(audit.map((a) => [a.action, a.subject, a.actorName])).toEqual([
      ['create', ENTRY.title, 'admin'],
      ['update', ENTRY.title, 'admin'],
    ]);
  });

  it('a stale version is refused with 409 and changes nothing', async () => {
    const [entry] = await rows();
    const stale = await t.as(t.admin, 'PATCH', `${PATH}/${entry!.id}`, { title: 'Lost edit', version: 1 });
    expect(stale.status).toBe(409);
    expect((await stale.json()).message).toBe('This item was changed by someone else. Reload to get the latest version.');
    expect((await rows())[0]).toEqual(entry);
  });

  it('the public list has the active entries only, in display order; the admin list has them all', async () => {
    const [entry] = await rows();
    expect((await t.as(t.admin, 'PATCH', `${PATH}/${entry!.id}`, { displayOrder: 2, version: entry!.version })).status).toBe(200);
    await t.as(t.admin, 'POST', PATH, { ...ENTRY, title: 'Hidden work', isActive: false, displayOrder: 0 });
    await t.as(t.admin, 'POST', PATH, { ...ENTRY, title: 'First shown', periodEnd: '2024-01', displayOrder: 0 });
    const visitor = await t.s.request('/api/past-performance');
    expect(visitor.status).toBe(200);
    const publicTitles = ((await visitor.json()) as { title: string }[]).map((e) => e.title);
    expect(publicTitles).toEqual(['First shown', ENTRY.title]);
    const all = ((await (await t.as(t.admin, 'GET', PATH)).json()) as { title: string }[]).map((e) => e.title);
    expect(all.sort()).toEqual(['First shown', 'Hidden work', ENTRY.title].sort());
  });

  it('the active entries newest first: ongoing work first, then by end month', async () => {
    await t.as(t.admin, 'POST', PATH, { ...ENTRY, title: 'Older work', periodStart: '2020-01', periodEnd: '2021-05', displayOrder: 9 });
    const titles = (await listActivePastPerformanceNewestFirst(t.s.db)).map((e) => e.title);
    expect(titles).toEqual([ENTRY.title, 'First shown', 'Older work']);
  });

  it('deleting an entry removes it from the pages; with none active the home page shows no block at all', async () => {
    for (const row of await rows()) {
      expect((await t.as(t.admin, 'DELETE', `${PATH}/${row.id}`)).status).toBe(200);
    }
    expect((await t.as(t.admin, 'DELETE', `${PATH}/999999`)).status).toBe(404);
    await settled();
    const home = await page('/');
    expect(home).not.toContain('Past performance');
    expect(home).not.toContain(ENTRY.title);
    expect(await page('/services/federal')).not.toContain(ENTRY.title);
    const deletes = await t.s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'past-performance'), eq(auditLog.action, 'delete')));
    // The four here and the one of the validation test.
    expect(deletes).toHaveLength(5);
  });
});

describe('[API][ADMIN][COMPANY] leadership and the figures', { timeout: 300_000 }, () => {
  const PROFILE = '/api/admin/company-profile';
  const profile = async () => (await (await t.as(t.admin, 'GET', PROFILE)).json()) as Record<string, unknown> & { version: number };

  it('a new install keeps the sample figures but does not publish them until the owner confirms them', async () => {
    const p = await profile();
    expect(p).toMatchObject({ figuresConfirmed: false, founderName: null, founderStory: null });
    expect(p.figures).toMatchObject({ onTimeDelivery: '98%' });
    expect(await page('/')).not.toContain('aria-label="Results"');
    expect(await page('/')).not.toContain('aria-label="Procurement dashboard"');
    const res = await t.as(t.admin, 'PATCH', PROFILE, { figuresConfirmed: true, version: p.version });
    expect(res.status).toBe(200);
    await settled();
    const home = await page('/');
    expect(home).toContain('aria-label="Results"');
    expect(home).toContain('98%');
    // Confirmed figures are the owner's: no "sample" label, and each bar says what it measures.
    expect(home).toContain('aria-label="Procurement dashboard"');
    expect(home).not.toContain('(sample)');
    expect(home).toMatch(/<span>Supplier performance<\/span>\s*<span>[^<]+<\/span>/);
  });

  it('editing a figure confirms the figures too', async () => {
    const p = await profile();
    await t.as(t.admin, 'PATCH', PROFILE, { figuresConfirmed: false, version: p.version });
    const after = await profile();
    const res = await t.as(t.admin, 'PATCH', PROFILE, { figures: { costSavings: '12%' }, version: after.version });
    expect(await res.json()).toMatchObject({ figuresConfirmed: true, figures: { costSavings: '12%' } });
  });

  it('the founder is saved with the version, shown on /about only once set, and a story over 1,000 characters is refused', async () => {
    expect(await page('/about')).not.toContain('Leadership');
    const p = await profile();
    const tooLong = await t.as(t.admin, 'PATCH', PROFILE, { founderStory: 'x'.repeat(1001), version: p.version });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).message).toBe('Must be at most 1000 characters');
    const res = await t.as(t.admin, 'PATCH', PROFILE, {
      founderName: 'Maria Lopez',
      founderTitle: 'Founder and CEO',
      founderStory: 'Twenty years in federal supply before founding the business.',
      version: p.version,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ founderName: 'Maria Lopez', founderTitle: 'Founder and CEO', version: p.version + 1 });
    const stale = await t.as(t.admin, 'PATCH', PROFILE, { founderName: 'Lost', version: p.version });
    expect(stale.status).toBe(409);
    await settled();
    const about = await page('/about');
    expect(about).toContain('Maria Lopez');
    expect(about).toContain('Founder and CEO');
    expect(about).toContain('Twenty years in federal supply before founding the business.');
  });
});
