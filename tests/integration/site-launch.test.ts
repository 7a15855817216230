/**
 * Launch day: a new install is hidden from search engines until its owner launches it, and its
 * starter content is known item by item ("Before you launch", GET /api/admin/launch-checklist).
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { appMeta, auditLog, companyProfile, features, insights } from '#server/db/schema/index.ts';
import { seed } from '#server/services/seed.ts';
import type { LaunchChecklist } from '#shared/launch-checklist.ts';
import { publishingAdminContext } from './helpers/admin';
import { openTestDatabase } from './helpers/db';

const CHECKLIST = '/api/admin/launch-checklist';
const LAUNCH = '/api/admin/site-launch';
const KEEP = '/api/admin/launch-checklist/keep';

describe('[LAUNCH] a new install: hidden until launched, its starter content on the checklist', { timeout: 180_000 }, () => {
  const t = publishingAdminContext('launch');

  const checklist = async (): Promise<LaunchChecklist> => {
    const res = await t.as(t.admin, 'GET', CHECKLIST);
    expect(res.status).toBe(200);
    return (await res.json()) as LaunchChecklist;
  };
  /** Waits until the live page at `path` satisfies `done`. */
  async function pageUntil(path: string, done: (res: Response, text: string) => boolean): Promise<{ res: Response; text: string }> {
    let last = '';
    for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      const res = await t.s.request(path);
      last = await res.text();
      if (done(res, last)) return { res, text: last };
    }
    throw new Error(`${path} never changed: ${last.slice(0, 300)}`);
  }

  it.each([
    ['GET', CHECKLIST, undefined],
    ['GET', LAUNCH, undefined],
    ['PUT', LAUNCH, { launched: true }],
    ['POST', KEEP, { key: 'company:tagline' }],
  ])('%s %s: 401 signed out, 403 for a user account, nothing changes', async (method, path, body) => {
    expect((await t.s.request(path, { method, ...(body ? { json: body } : {}) })).status).toBe(401);
    expect((await t.as(t.user, method, path, body)).status).toBe(403);
    const list = await checklist();
    expect(list.launched).toBe(false);
    expect(list.items.some((i) => i.key === 'company:tagline')).toBe(true);
  });

  it('starts hidden: every page noindex (meta and X-Robots-Tag), robots.txt refuses all and names no sitemap', async () => {
    const { res, text } = await pageUntil('/about', (r) => r.status === 200);
    expect(text).toContain('<meta name="robots" content="noindex">');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    const home = await t.s.request('/');
    expect(home.headers.get('x-robots-tag')).toBe('noindex');
    expect(await (await t.s.request('/robots.txt')).text()).toBe('User-agent: *\nDisallow: /\n');
    const ready = (await (await t.s.request('/readyz')).json()) as { checks: { site: string } };
    expect(ready.checks.site).toBe('hidden');
  });

  it('lists every starter item by page, never done while one is live, with the identity checks and a count', async () => {
    const list = await checklist();
    expect(list.launched).toBe(false);
    const starter = list.items.filter((i) => i.starter);
    const groups = new Set(starter.map((i) => i.group));
    expect([...groups]).toEqual(['Every page', 'Home', 'About', 'Services', 'Federal capabilities', 'Insights']);
    // The three starter articles, by their titles.
    expect(starter.filter((i) => i.key.startsWith('insight:'))).toHaveLength(3);
    expect(starter.find((i) => i.key === 'company:legalName')).toMatchObject({
      tab: 'company',
      field: 'legalName',
      action: 'Edit it in Company',
    });
    const card = starter.find((i) => i.key.startsWith('feature:') && i.group === 'About')!;
    expect(card).toMatchObject({ tab: 'about', record: { kind: 'feature', section: 'about' } });
    expect(card.text).toMatch(/^The “Why Choose Us” card “.+” is still the starter text\.$/);
    expect(list.items.find((i) => i.key === 'identity:uei')).toMatchObject({ group: 'Company identity', field: 'uei' });
    // Identity groups first, then page by page.
    expect(list.items[0]!.group).toBe('Company identity');
    expect(list.total).toBe(8 + starter.length);
    expect(list.done).toBe(list.total - list.items.length);
    expect(list.done).toBeLessThan(list.total);
  });

  it('an edit clears its item with no box to tick; a deleted article and a kept one leave too; each counts as done', async () => {
    const before = await checklist();
    const [profile] = await t.s.db.select().from(companyProfile);
    let res = await t.as(t.admin, 'PATCH', '/api/admin/company-profile', {
      tagline: 'Laptops to the last mile',
      version: profile!.version,
    });
    expect(res.status).toBe(200);
    let after = await checklist();
    expect(after.items.some((i) => i.key === 'company:tagline')).toBe(false);
    expect(after.done).toBe(before.done + 1);
    expect(after.total).toBe(before.total);

    const [card] = await t.s.db.select().from(features).where(eq(features.section, 'about')).limit(1);
    res = await t.as(t.admin, 'PATCH', `/api/features/${card!.id}`, {
      description: 'Our own words about quality.',
      version: card!.version,
    });
    expect(res.status).toBe(200);
    after = await checklist();
    expect(after.items.some((i) => i.key === `feature:${card!.id}`)).toBe(false);

    const articles = await t.s.db.select().from(insights).orderBy(insights.id);
    res = await t.as(t.admin, 'DELETE', `/api/admin/insights/${articles[0]!.id}`);
    expect(res.status).toBeLessThan(300);
    res = await t.as(t.admin, 'POST', KEEP, { key: `insight:${articles[1]!.id}` });
    expect(res.status).toBe(200);
    const kept = (await res.json()) as LaunchChecklist;
    expect(kept.items.filter((i) => i.key.startsWith('insight:')).map((i) => i.key)).toEqual([`insight:${articles[2]!.id}`]);
    expect(kept.done).toBe(before.done + 4);
    const [audit] = await t.s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'starter-content'), eq(auditLog.entityId, `insight:${articles[1]!.id}`)));
    expect(audit).toMatchObject({ action: 'update', after: { starter: false } });
    // Kept once is kept: a second time it is not starter content any more.
    expect((await t.as(t.admin, 'POST', KEEP, { key: `insight:${articles[1]!.id}` })).status).toBe(404);
  });

  it.each([[{}], [{ key: '' }], [{ key: 'x'.repeat(101) }], [{ key: 'company:tagline', extra: 1 }], [['company:tagline']]])(
    'keep: bad input %j → 400 with a message; nothing changes',
    async (body) => {
      const before = await checklist();
      const res = await t.as(t.admin, 'POST', KEEP, body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toEqual(expect.any(String));
      expect(await checklist()).toEqual(before);
    },
  );

  it('keep: an item that is not live starter content → 404', async () => {
    const res = await t.as(t.admin, 'POST', KEEP, { key: 'feature:999999' });
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe('That item is not starter content on the site');
  });

  it.each([[{}], [{ launched: 'yes' }], [{ launched: true, extra: 1 }], [[true]]])(
    'launch: bad input %j → 400; still hidden',
    async (body) => {
      const res = await t.as(t.admin, 'PUT', LAUNCH, body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toEqual(expect.any(String));
      expect((await checklist()).launched).toBe(false);
    },
  );

  it('launch: audited, published without noindex, robots.txt names the sitemap; hiding again brings noindex back', async () => {
    let res = await t.as(t.admin, 'PUT', LAUNCH, { launched: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ launched: true });
    const { res: about, text } = await pageUntil('/about', (r, body) => r.status === 200 && !body.includes('name="robots"'));
    expect(about.headers.get('x-robots-tag')).toBeNull();
    expect(text).toContain('<link rel="canonical"');
    const robots = await (await t.s.request('/robots.txt')).text();
    expect(robots).toContain('Allow: /');
    expect(robots).toMatch(/^Sitemap: http.+\/sitemap\.xml$/m);
    const [audit] = await t.s.db.select().from(auditLog).where(eq(auditLog.entity, 'site-launch'));
    expect(audit).toMatchObject({ action: 'update', before: { launched: false }, after: { launched: true }, subject: 'Launched the site' });
    expect((await checklist()).launched).toBe(true);
    const ready = (await (await t.s.request('/readyz')).json()) as { checks: { site: string } };
    expect(ready.checks.site).toBe('launched');
    // The 404 page keeps its own noindex either way.
    expect((await t.s.request('/no-such-page')).headers.get('x-robots-tag')).toBe('noindex');

    res = await t.as(t.admin, 'PUT', LAUNCH, { launched: false });
    expect(await res.json()).toEqual({ launched: false });
    const hidden = await pageUntil('/about', (r) => r.headers.get('x-robots-tag') === 'noindex');
    expect(hidden.text).toContain('<meta name="robots" content="noindex">');
    expect(await (await t.s.request('/robots.txt')).text()).toBe('User-agent: *\nDisallow: /\n');
  });
});

describe('[LAUNCH] an install upgraded from before launching existed', () => {
  it('is launched, and only what is still byte for byte the seed is starter content', async () => {
    const h = await openTestDatabase();
    try {
      await seed(h.db);
      // What an earlier version left: no launch state, no record of starter content, and the
      // owner's own words on one card and the tagline.
      await h.db.delete(appMeta).where(eq(appMeta.key, 'site-launch'));
      await h.db.delete(appMeta).where(eq(appMeta.key, 'starter-content'));
      const [card] = await h.db.select().from(features).where(eq(features.section, 'home')).limit(1);
      await h.db.update(features).set({ title: 'Our own card' }).where(eq(features.id, card!.id));
      await h.db.update(companyProfile).set({ tagline: 'Our own tagline' });

      const again = await seed(h.db, { onlyOnce: true });
      expect(again.inserted).toEqual(['starter-content']);
      const { launchChecklist } = await import('#server/services/launch-checklist.ts');
      const list = await launchChecklist(h.db);
      expect(list.launched).toBe(true);
      const keys = list.items.map((i) => i.key);
      expect(keys).not.toContain(`feature:${card!.id}`);
      expect(keys).not.toContain('company:tagline');
      expect(keys).toContain('company:legalName');
      // A later start records nothing again.
      expect((await seed(h.db, { onlyOnce: true })).inserted).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
