import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, insights } from '#server/db/schema/index.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';

let t: AdminTestContext;
/** The starting articles the seed publishes; the counts below are relative to them. */
let seeded: number;
// Starting the server, migrating and hashing two passwords can be slow on a busy machine.
beforeAll(async () => {
  t = await startAdminContext();
  seeded = await count();
}, 180_000);
afterAll(() => t?.s.close());

const valid = {
  title: 'Cutting Freight Costs',
  category: 'market_analysis',
  slug: 'cutting-freight-costs',
  excerpt: 'How agencies save money on routine buys.',
  content: 'A long enough body of text that explains how agencies can reduce their procurement costs.',
  readMinutes: 4,
  authorName: 'Jane Doe',
  authorTitle: 'Principal',
  tags: 'costs, savings, ,  agencies',
};

const count = async () => (await t.s.db.select().from(insights)).length;

describe('[API][ADMIN][INSIGHTS] access', () => {
  it.each([
    ['GET', '/api/admin/insights'],
    ['POST', '/api/admin/insights'],
    ['PATCH', '/api/admin/insights/1'],
    ['DELETE', '/api/admin/insights/1'],
  ])('%s %s: 401 signed out, 403 for a user account', async (method, path) => {
    const body = method === 'POST' || method === 'PATCH' ? valid : undefined;
    const anon = await t.s.request(path, { method, ...(body ? { json: body } : {}) });
    expect(anon.status).toBe(401);
    const user = await t.as(t.user, method, path, body);
    expect(user.status).toBe(403);
    // Insight 1 is a seeded article: neither request changed or removed it.
    expect(await count()).toBe(seeded);
    const [first] = await t.s.db.select().from(insights).where(eq(insights.id, 1));
    expect(first?.version).toBe(1);
  });
});

describe('[API][ADMIN][INSIGHTS] create, list, edit, publish, delete', () => {
  let id: number;
  let version: number;

  it('creates a draft with tags split on commas and no publication date', async () => {
    const res = await t.as(t.admin, 'POST', '/api/admin/insights', valid);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ slug: 'cutting-freight-costs', isPublished: false, publicationDate: null, version: 1 });
    expect(body.tags).toEqual(['costs', 'savings', 'agencies']);
    id = body.id;
    version = body.version;
  });

  it('lists drafts to the admin but not on the public list', async () => {
    const admin = await (await t.as(t.admin, 'GET', '/api/admin/insights')).json();
    expect(admin.map((i: { id: number }) => i.id)).toContain(id);
    const pub = await (await t.s.request('/api/insights')).json();
    expect(pub.map((i: { id: number }) => i.id)).not.toContain(id);
    expect(pub).toHaveLength(seeded);
  });

  it('publishing stamps a date; unpublishing clears it', async () => {
    const before = Date.now();
    const res = await t.as(t.admin, 'PATCH', `/api/admin/insights/${id}`, { isPublished: true, version });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.isPublished).toBe(true);
    expect(new Date(body.publicationDate).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(body.version).toBe(version + 1);
    version = body.version;
    const off = await (
      await t.as(t.admin, 'PATCH', `/api/admin/insights/${id}`, { isPublished: false, publicationDate: null, version })
    ).json();
    expect(off).toMatchObject({ isPublished: false, publicationDate: null });
    version = off.version;
  });

  it('a partial update changes only the given fields', async () => {
    const res = await t.as(t.admin, 'PATCH', `/api/admin/insights/${id}`, { title: 'New title', version });
    const body = await res.json();
    expect(body).toMatchObject({ title: 'New title', readMinutes: 4, category: 'market_analysis', slug: valid.slug });
    version = body.version;
  });

  it('a stale version is refused with 409 and nothing changes', async () => {
    const res = await t.as(t.admin, 'PATCH', `/api/admin/insights/${id}`, { title: 'Overwrite', version: version - 1 });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: 'This item was changed by someone else. Reload to get the latest version.' });
    const [row] = await t.s.db.select().from(insights).where(eq(insights.id, id));
    expect(row).toMatchObject({ title: 'New title', version });
  });

  it('a taken slug is a 409', async () => {
    const res = await t.as(t.admin, 'POST', '/api/admin/insights', { ...valid, title: 'Other' });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe('An insight with this slug already exists');
  });

  it('every change wrote an audit row with who and what changed', async () => {
    const rows = await t.s.db.select().from(auditLog).where(eq(auditLog.entity, 'insight'));
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'update', 'update']);
    const titleChange = rows[3]!;
    expect(titleChange.actorName).toBe('admin');
    expect(titleChange.before).toEqual({ title: 'Cutting Freight Costs' });
    expect(titleChange.after).toEqual({ title: 'New title' });
    // Each row names what it changed, so the Activity list can say "the insight “…”".
    expect(rows[0]!.subject).toBe('Cutting Freight Costs');
    expect(titleChange.subject).toBe('New title');
  });

  it('deletes; a second delete is a 404', async () => {
    expect((await t.as(t.admin, 'DELETE', `/api/admin/insights/${id}`)).status).toBe(200);
    expect(await count()).toBe(seeded);
    expect((await t.as(t.admin, 'DELETE', `/api/admin/insights/${id}`)).status).toBe(404);
  });
});

describe('[API][ADMIN][INSIGHTS] validation: each invalid field answers the spec message', () => {
  it.each([
    [{ title: '' }, 'Title is required'],
    [{ slug: 'Has Spaces' }, 'Slug must contain only lowercase letters, numbers, and hyphens'],
    [{ slug: '' }, 'Slug is required'],
    [{ slug: '404' }, 'The slug 404 is reserved: please choose another'],
    [{ excerpt: 'short' }, 'Summary must be at least 10 characters'],
    [{ excerpt: 'x'.repeat(201) }, 'Summary must be at most 200 characters'],
    [{ content: 'too short' }, 'Content must be at least 50 characters'],
    [{ readMinutes: 0 }, 'Read time must be a whole number of at least 1'],
    [{ authorName: ' ' }, 'Author name is required'],
    [{ authorTitle: '' }, 'Author title is required'],
    [{ category: 'gossip' }, 'Category is required'],
    [{ featuredImage: 'javascript:alert(1)' }, 'URL must be a relative path or start with http:// or https://'],
    [{ title: 'x'.repeat(201) }, 'Must be at most 200 characters'],
  ])('%o → 400 %s', async (change, message) => {
    const res = await t.as(t.admin, 'POST', '/api/admin/insights', { ...valid, slug: 'validation-case', ...change });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect(await count()).toBe(seeded);
  });

  it('a PATCH with an invalid field changes nothing', async () => {
    const created = await (await t.as(t.admin, 'POST', '/api/admin/insights', { ...valid, slug: 'patch-case' })).json();
    const res = await t.as(t.admin, 'PATCH', `/api/admin/insights/${created.id}`, { excerpt: 'short', version: created.version });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('Summary must be at least 10 characters');
    const [row] = await t.s.db.select().from(insights).where(eq(insights.id, created.id));
    expect(row).toMatchObject({ excerpt: valid.excerpt, version: 1 });
  });

  it('[SECURITY] a field the form does not have (published for isPublished) is a 400 naming it; nothing is stored or changed', async () => {
    const before = await count();
    const res = await t.as(t.admin, 'POST', '/api/admin/insights', { ...valid, slug: 'unknown-field', published: true });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('Unknown field: published');
    expect(await count()).toBe(before);
    const created = await (await t.as(t.admin, 'POST', '/api/admin/insights', { ...valid, slug: 'unknown-field' })).json();
    const patch = await t.as(t.admin, 'PATCH', `/api/admin/insights/${created.id}`, {
      title: 'Renamed',
      isPublishd: true,
      version: created.version,
    });
    expect(patch.status).toBe(400);
    expect((await patch.json()).message).toBe('Unknown field: isPublishd');
    const [row] = await t.s.db.select().from(insights).where(eq(insights.id, created.id));
    expect(row).toMatchObject({ title: valid.title, isPublished: false, version: 1 });
  });

  it('a non-JSON body is a 415', async () => {
    const res = await t.s.request('/api/admin/insights', {
      method: 'POST',
      cookie: t.admin,
      body: 'x',
      headers: { 'content-type': 'text/plain', origin: t.s.url },
    });
    expect(res.status).toBe(415);
  });
});
