import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, savedReplies } from '#server/db/schema/index.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';

let t: AdminTestContext;
beforeAll(async () => {
  t = await startAdminContext();
}, 180_000);
afterAll(async () => {
  await t?.s.close();
});

const rows = () => t.s.db.select().from(savedReplies).orderBy(savedReplies.id);

describe('[LEADS][SAVED REPLIES][API] admin only', () => {
  it.each([
    ['GET', '/api/admin/saved-replies', undefined],
    ['POST', '/api/admin/saved-replies', { title: 'Lead time', body: 'Two weeks.' }],
    ['PATCH', '/api/admin/saved-replies/1', { title: 'Lead time' }],
    ['DELETE', '/api/admin/saved-replies/1', undefined],
    ['GET', '/api/admin/reply-setup', undefined],
  ])('%s %s: 401 signed out, 403 for a non-admin, nothing changed', async (method, url, body) => {
    const before = await rows();
    const out = await t.s.request(url, { method, ...(body ? { json: body } : {}) });
    expect(out.status).toBe(401);
    expect((await out.json()).message).toBe('Authentication required');
    const user = await t.as(t.user, method, url, body);
    expect(user.status).toBe(403);
    expect((await user.json()).message).toBe('Administrator access required');
    expect(await rows()).toEqual(before);
  });
});

describe('[LEADS][SAVED REPLIES][API] create, list, edit, delete', () => {
  it('creates, lists by title, edits with the version, deletes; each change is audited', async () => {
    const created = await t.as(t.admin, 'POST', '/api/admin/saved-replies', {
      title: '  Lead time  ',
      body: 'Delivery takes two weeks after award.\n\nThanks!',
    });
    expect(created.status).toBe(201);
    const reply = await created.json();
    expect(reply).toMatchObject({ title: 'Lead time', body: 'Delivery takes two weeks after award.\n\nThanks!', version: 1 });
    await t.as(t.admin, 'POST', '/api/admin/saved-replies', { title: 'Capability', body: 'Our capability statement is attached.' });

    const list = await (await t.as(t.admin, 'GET', '/api/admin/saved-replies')).json();
    expect(list.map((r: { title: string }) => r.title)).toEqual(['Capability', 'Lead time']);

    const edited = await t.as(t.admin, 'PATCH', `/api/admin/saved-replies/${reply.id}`, { body: 'Three weeks.', version: 1 });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ id: reply.id, title: 'Lead time', body: 'Three weeks.', version: 2 });

    const del = await t.as(t.admin, 'DELETE', `/api/admin/saved-replies/${reply.id}`);
    expect(del.status).toBe(200);
    expect((await t.as(t.admin, 'DELETE', `/api/admin/saved-replies/${reply.id}`)).status).toBe(404);
    expect((await t.as(t.admin, 'PATCH', `/api/admin/saved-replies/${reply.id}`, { title: 'x' })).status).toBe(404);

    const audit = await t.s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'saved-reply'), eq(auditLog.entityId, String(reply.id))))
      .orderBy(auditLog.id);
    expect(audit.map((a) => [a.action, a.subject, a.actorName])).toEqual([
      ['create', 'Lead time', 'admin'],
      ['update', 'Lead time', 'admin'],
      ['delete', 'Lead time', 'admin'],
    ]);
  });

  it('a stale version is refused with 409 and changes nothing', async () => {
    const reply = await (await t.as(t.admin, 'POST', '/api/admin/saved-replies', { title: 'Pricing', body: 'Net 30.' })).json();
    expect((await t.as(t.admin, 'PATCH', `/api/admin/saved-replies/${reply.id}`, { body: 'Net 45.', version: 1 })).status).toBe(200);
    const stale = await t.as(t.admin, 'PATCH', `/api/admin/saved-replies/${reply.id}`, { body: 'Net 60.', version: 1 });
    expect(stale.status).toBe(409);
    expect((await stale.json()).message).toBe('This item was changed by someone else. Reload to get the latest version.');
    const [row] = await t.s.db.select().from(savedReplies).where(eq(savedReplies.id, reply.id));
    expect(row).toMatchObject({ body: 'Net 45.', version: 2 });
  });

  it.each([
    ['a blank title', { title: '   ', body: 'x' }, 'Title is required'],
    ['no text', { title: 'Empty' }, 'Text is required'],
    ['a title over 100 characters', { title: 'x'.repeat(101), body: 'x' }, 'Must be at most 100 characters'],
    ['text over 10,000 characters', { title: 'Long', body: 'x'.repeat(10_001) }, 'Must be at most 10000 characters'],
    ['a title that is not text', { title: 42, body: 'x' }, 'Title is required'],
  ])('POST with %s: 400 JSON, nothing stored', async (_what, body, message) => {
    const before = await rows();
    const res = await t.as(t.admin, 'POST', '/api/admin/saved-replies', body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await res.json()).message).toBe(message);
    expect(await rows()).toEqual(before);
  });

  it('PATCH with bad input or a bad id: 4xx JSON, nothing changed', async () => {
    const reply = await (await t.as(t.admin, 'POST', '/api/admin/saved-replies', { title: 'Keep', body: 'Kept as is.' })).json();
    const before = await rows();
    for (const body of [{ title: '' }, { body: 'y'.repeat(10_001) }, { version: 'one' }, 'not an object']) {
      const res = await t.as(t.admin, 'PATCH', `/api/admin/saved-replies/${reply.id}`, body);
      expect(res.status).toBe(400);
      expect(typeof (await res.json()).message).toBe('string');
    }
    const badId = await t.as(t.admin, 'PATCH', '/api/admin/saved-replies/abc', { title: 'x' });
    expect(badId.status).toBeGreaterThanOrEqual(400);
    expect(badId.status).toBeLessThan(500);
    expect(await rows()).toEqual(before);
    const newest = await t.s.db.select().from(auditLog).where(eq(auditLog.entity, 'saved-reply')).orderBy(desc(auditLog.id)).limit(1);
    expect(newest[0]).toMatchObject({ action: 'create', subject: 'Keep' });
  });
});
