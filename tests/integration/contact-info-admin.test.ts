import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactInfo, mailOutbox } from '#server/db/schema/index.ts';
import { snapshotContent } from '#server/content/site-content.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';

let t: AdminTestContext;
beforeAll(async () => {
  delete process.env.CONTACT_NOTIFY_TO;
  t = await startAdminContext();
}, 180_000);
afterAll(() => t?.s.close());

const valid = {
  email: 'sales@sterling-federal.com',
  phone: '+1 (202) 290-0147',
  address: '1 Main St\nSuite 2\nWashington, DC',
  businessHours: 'Mon–Fri 8–6 ET',
};
const rows = () => t.s.db.select().from(contactInfo);
const activeIds = async () => (await rows()).filter((r) => r.isActive).map((r) => r.id);

describe('[LEADS][CONTACT-INFO] /api/admin/contact-info', { timeout: 60_000 }, () => {
  it('admin only: 401 signed out, 403 for a non-admin', async () => {
    expect((await t.s.request('/api/admin/contact-info')).status).toBe(401);
    expect((await t.as(t.user, 'GET', '/api/admin/contact-info')).status).toBe(403);
    expect((await t.as(t.user, 'POST', '/api/admin/contact-info', valid)).status).toBe(403);
    expect((await t.as(t.user, 'PATCH', '/api/admin/contact-info/1', { phone: '1' })).status).toBe(403);
  });

  it.each([
    [{ email: 'not-an-email' }, 'Valid email is required'],
    [{ email: 'a@b.co, c@d.co' }, 'Valid email is required'],
    [{ phone: ' ' }, 'Phone is required'],
    [{ address: '' }, 'Address is required'],
    [{ businessHours: '' }, 'Business hours are required'],
    [{ phone: '5'.repeat(51) }, 'Must be at most 50 characters'],
    [{ displayEmail: 'yes' }, 'Invalid displayEmail'],
  ])('refuses %j with 400 and changes nothing', async (patch, message) => {
    const before = (await rows()).length;
    const res = await t.as(t.admin, 'POST', '/api/admin/contact-info', { ...valid, ...patch });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect((await rows()).length).toBe(before);
  });

  it('one active record, kept by the server; the public answer, notifications and the pages follow it', async () => {
    const [seeded] = await activeIds();
    const res = await t.as(t.admin, 'POST', '/api/admin/contact-info', valid);
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ ...valid, isActive: true, displayEmail: true });
    expect(await activeIds()).toEqual([created.id]);

    const list = await (await t.as(t.admin, 'GET', '/api/admin/contact-info')).json();
    expect(list[0].id).toBe(created.id);
    expect((await (await t.s.request('/api/contact-info/active')).json()).email).toBe('sales@sterling-federal.com');
    expect((await snapshotContent(t.s.db)).contactInfo?.email).toBe('sales@sterling-federal.com');

    // A new inquiry is announced to the active record's address.
    const sent = await t.s.request('/api/contact', {
      method: 'POST',
      json: { name: 'Al Buyer', email: 'al@agency.gov', message: 'Laptops for the VA, please.', elapsedMs: 8000 },
    });
    expect(sent.status).toBe(201);
    const [note] = await t.s.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'contact.notification'))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(note!.toAddress).toBe('sales@sterling-federal.com');

    // Switching back through PATCH; a stale version changes nothing.
    const old = (await rows()).find((r) => r.id === seeded)!;
    const back = await t.as(t.admin, 'PATCH', `/api/admin/contact-info/${seeded}`, { isActive: true, version: old.version });
    expect(back.status).toBe(200);
    expect(await activeIds()).toEqual([seeded]);
    const stale = await t.as(t.admin, 'PATCH', `/api/admin/contact-info/${seeded}`, { phone: '1', version: old.version });
    expect(stale.status).toBe(409);
    expect((await rows()).find((r) => r.id === seeded)!.phone).toBe(old.phone);
    expect((await t.as(t.admin, 'PATCH', '/api/admin/contact-info/999999', { phone: '1' })).status).toBe(404);
  });
});
