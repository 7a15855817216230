/** CONTACT_NOTIFY_TO wins over a real contact e-mail and real administrators; its placeholders are skipped. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactInfo, mailOutbox } from '#server/db/schema/index.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';
import { resetEnvCache } from '../helpers/bundle';

let t: AdminTestContext;
beforeAll(async () => {
  process.env.CONTACT_NOTIFY_TO = 'bids@harbor-federal.com, ops@example.com, sales@harbor-federal.com';
  process.env.ADMIN_EMAIL = 'owner@harbor-federal.com';
  resetEnvCache();
  t = await startAdminContext();
  await t.s.db.update(contactInfo).set({ email: 'desk@harbor-federal.com' }).where(eq(contactInfo.isActive, true));
}, 180_000);
afterAll(() => t?.s.close());

describe('[LEADS][RECIPIENTS] CONTACT_NOTIFY_TO', { timeout: 60_000 }, () => {
  it('wins: its real addresses are notified, not the contact e-mail or the administrators', async () => {
    const current = await (await t.as(t.admin, 'GET', '/api/admin/lead-delivery')).json();
    expect(current).toEqual({ recipients: ['bids@harbor-federal.com', 'sales@harbor-federal.com'], source: 'configured' });
    const res = await t.s.request('/api/contact', {
      method: 'POST',
      json: { name: 'Jane Buyer', email: 'jane@agency.gov', message: 'Forty laptops, configured route.', elapsedMs: 9_000 },
    });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const queued = await t.s.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, id));
    expect(queued.map((m) => m.toAddress).sort()).toEqual(['bids@harbor-federal.com', 'sales@harbor-federal.com']);
    expect((await (await t.s.request('/readyz')).json()).checks.leadRecipients).toBe('ok');
  });
});
