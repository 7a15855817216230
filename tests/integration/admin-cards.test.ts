import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '#server/services/seed.ts';
import { features, services } from '#server/db/schema/index.ts';
import { FALLBACK_FEDERAL_PRODUCTS } from '#shared/fallbacks.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';

let t: AdminTestContext;
// Starting the server, migrating and hashing two passwords can be slow on a busy machine.
beforeAll(async () => {
  t = await startAdminContext();
}, 180_000);
afterAll(() => t?.s.close());

const json = async (res: Response) => ({ status: res.status, body: await res.json() });

describe('[API][ADMIN][FEATURES]', () => {
  const card = { title: 'Fast Delivery', description: 'On time, every time.', icon: 'truck', displayOrder: 5 };

  it.each([
    ['POST', '/api/features'],
    ['PATCH', '/api/features/1'],
    ['DELETE', '/api/features/1'],
  ])('%s %s: 401 signed out, 403 for a user account, nothing changes', async (method, path) => {
    const before = await t.s.db.select().from(features);
    const body = method === 'DELETE' ? undefined : card;
    expect((await t.s.request(path, { method, ...(body ? { json: body } : {}) })).status).toBe(401);
    expect((await t.as(t.user, method, path, body)).status).toBe(403);
    expect(await t.s.db.select().from(features)).toEqual(before);
  });

  it('creates a home card; visitors see it on /api/features', async () => {
    const { status, body } = await json(await t.as(t.admin, 'POST', '/api/features', card));
    expect(status).toBe(201);
    expect(body).toMatchObject({ ...card, section: 'home', isActive: true, version: 1 });
    const pub = await (await t.s.request('/api/features')).json();
    expect(pub.at(-1).title).toBe('Fast Delivery');
  });

  it('an inactive card is hidden from visitors but listed to the admin', async () => {
    const [row] = await t.s.db.select().from(features).where(eq(features.title, card.title));
    const res = await json(await t.as(t.admin, 'PATCH', `/api/features/${row!.id}`, { isActive: false, version: 1 }));
    expect(res.body).toMatchObject({ isActive: false, displayOrder: 5, version: 2 });
    expect((await (await t.s.request('/api/features')).json()).some((f: { id: number }) => f.id === row!.id)).toBe(false);
    expect((await (await t.as(t.admin, 'GET', '/api/features')).json()).some((f: { id: number }) => f.id === row!.id)).toBe(true);
  });

  it('a stale edit → 409, nothing changes', async () => {
    const [row] = await t.s.db.select().from(features).where(eq(features.title, card.title));
    const res = await t.as(t.admin, 'PATCH', `/api/features/${row!.id}`, { title: 'Lost', version: 1 });
    expect(res.status).toBe(409);
    expect((await t.s.db.select().from(features).where(eq(features.id, row!.id)))[0]!.title).toBe(card.title);
  });

  it('about cards: section about in the body; description needs 10 characters', async () => {
    const bad = await json(await t.as(t.admin, 'POST', '/api/features', { ...card, section: 'about', description: 'Too short' }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Description must be at least 10 characters');
    const ok = await json(await t.as(t.admin, 'POST', '/api/features', { ...card, section: 'about', icon: 'fas fa-star' }));
    expect(ok.status).toBe(201);
    expect((await (await t.s.request('/api/about-features')).json()).some((f: { id: number }) => f.id === ok.body.id)).toBe(true);
    const patch = await json(
      await t.as(t.admin, 'PATCH', `/api/features/${ok.body.id}`, { description: 'short', section: 'about', version: 1 }),
    );
    expect(patch.status).toBe(400);
    expect(patch.body.message).toBe('Description must be at least 10 characters');
  });

  it("federal product cards: a new install has the page's six, listed by /api/federal-features; a card added there shows nowhere else", async () => {
    const seeded = (await (await t.s.request('/api/federal-features')).json()) as { title: string; icon: string }[];
    expect(seeded.map((f) => f.title)).toEqual(FALLBACK_FEDERAL_PRODUCTS.map((f) => f.title));
    expect(seeded.map((f) => f.icon)).toContain('truck');
    const res = await json(
      await t.as(t.admin, 'POST', '/api/features', { ...card, title: 'Lab Equipment', section: 'federal', icon: 'package' }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ section: 'federal', title: 'Lab Equipment' });
    const federal = (await (await t.s.request('/api/federal-features')).json()) as { id: number }[];
    expect(federal.at(-1)!.id).toBe(res.body.id);
    for (const other of ['/api/features', '/api/about-features'])
      expect(((await (await t.s.request(other)).json()) as { id: number }[]).some((f) => f.id === res.body.id)).toBe(false);
    // Deleted cards stay deleted: the six come back on no later start.
    for (const f of await t.s.db.select().from(features).where(eq(features.section, 'federal')))
      expect((await t.as(t.admin, 'DELETE', `/api/features/${f.id}`)).status).toBe(200);
    expect((await seed(t.s.db, { onlyOnce: true })).inserted).not.toContain('feature:federal');
    expect(await (await t.s.request('/api/federal-features')).json()).toEqual([]);
  });

  it.each([
    [{ title: '' }, 'Title is required'],
    [{ description: '' }, 'Description is required'],
    [{ icon: '' }, 'Icon is required'],
    [{ displayOrder: -1 }, 'Display order must be a whole number of 0 or more'],
    [{ displayOrder: 1.5 }, 'Display order must be a whole number of 0 or more'],
    [{ section: 'footer' }, 'Unknown feature section'],
  ])('%o → 400 %s', async (change, message) => {
    const before = (await t.s.db.select().from(features)).length;
    const res = await json(await t.as(t.admin, 'POST', '/api/features', { ...card, ...change }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await t.s.db.select().from(features)).length).toBe(before);
  });

  it('deletes; then 404', async () => {
    const [row] = await t.s.db.select().from(features).where(eq(features.title, card.title));
    expect((await t.as(t.admin, 'DELETE', `/api/features/${row!.id}`)).status).toBe(200);
    expect((await t.as(t.admin, 'DELETE', `/api/features/${row!.id}`)).status).toBe(404);
    expect((await t.as(t.admin, 'PATCH', `/api/features/${row!.id}`, { title: 'x' })).status).toBe(404);
  });
});

describe('[API][ADMIN][SERVICES]', () => {
  const service = {
    title: 'Bid Support',
    description: 'We help you bid.',
    icon: 'clipboard-list',
    imageSrc: 'https://img.example.com/a.jpg',
  };

  it.each([
    ['POST', '/api/services'],
    ['PATCH', '/api/services/1'],
    ['DELETE', '/api/services/1'],
  ])('%s %s: 401 signed out, 403 for a user account, nothing changes', async (method, path) => {
    const before = await t.s.db.select().from(services);
    const body = method === 'DELETE' ? undefined : service;
    expect((await t.s.request(path, { method, ...(body ? { json: body } : {}) })).status).toBe(401);
    expect((await t.as(t.user, method, path, body)).status).toBe(403);
    expect(await t.s.db.select().from(services)).toEqual(before);
  });

  it('a new service without an order goes last (the current count)', async () => {
    const { status, body } = await json(await t.as(t.admin, 'POST', '/api/services', service));
    expect(status).toBe(201);
    expect(body).toMatchObject({ ...service, displayOrder: 3, isActive: true, detailedDescription: null, version: 1 });
  });

  it('partial update keeps the other fields; clearing the image stores null', async () => {
    const [row] = await t.s.db.select().from(services).where(eq(services.title, service.title));
    const res = await json(await t.as(t.admin, 'PATCH', `/api/services/${row!.id}`, { imageSrc: '', isActive: false, version: 1 }));
    expect(res.body).toMatchObject({ title: service.title, imageSrc: null, isActive: false, displayOrder: 3, version: 2 });
    expect((await (await t.s.request('/api/services')).json()).some((s: { id: number }) => s.id === row!.id)).toBe(false);
  });

  it('a stale edit → 409, nothing changes', async () => {
    const [row] = await t.s.db.select().from(services).where(eq(services.title, service.title));
    const res = await json(await t.as(t.admin, 'PATCH', `/api/services/${row!.id}`, { title: 'Lost', version: 1 }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This item was changed by someone else. Reload to get the latest version.');
    expect((await t.s.db.select().from(services).where(eq(services.id, row!.id)))[0]).toMatchObject({ title: service.title, version: 2 });
  });

  it.each([
    [{ title: '' }, 'Service name is required'],
    [{ description: ' ' }, 'Description is required'],
    [{ icon: '' }, 'Icon is required'],
    [{ displayOrder: -2 }, 'Display order must be a whole number of 0 or more'],
    [{ imageSrc: 'data:image/png;base64,AAAA' }, 'URL must be a relative path or start with http:// or https://'],
  ])('%o → 400 %s', async (change, message) => {
    const before = (await t.s.db.select().from(services)).length;
    const res = await json(await t.as(t.admin, 'POST', '/api/services', { ...service, ...change }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await t.s.db.select().from(services)).length).toBe(before);
  });

  it('a PATCH with an invalid field changes nothing', async () => {
    const [row] = await t.s.db.select().from(services).where(eq(services.title, service.title));
    const res = await json(await t.as(t.admin, 'PATCH', `/api/services/${row!.id}`, { title: '', version: row!.version }));
    expect(res.status).toBe(400);
    expect((await t.s.db.select().from(services).where(eq(services.id, row!.id)))[0]).toEqual(row);
  });

  it('deletes; then 404; a bad id is 400', async () => {
    const [row] = await t.s.db.select().from(services).where(eq(services.title, service.title));
    expect((await t.as(t.admin, 'DELETE', `/api/services/${row!.id}`)).status).toBe(200);
    expect((await t.as(t.admin, 'DELETE', `/api/services/${row!.id}`)).status).toBe(404);
    expect((await t.as(t.admin, 'DELETE', '/api/services/abc')).status).toBe(400);
  });
});
