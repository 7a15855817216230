import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactInfo, emailTemplates, mailOutbox } from '#server/db/schema/index.ts';
import { DEFAULT_TEMPLATE } from '#shared/fallbacks.ts';
import { FONT_STACKS } from '#shared/constants.ts';
import { URL_MESSAGE } from '#shared/schemas/fields.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';

let t: AdminTestContext;
beforeAll(async () => {
  t = await startAdminContext();
}, 180_000);
afterAll(() => t?.s.close());

const base = {
  templateType: 'contact_response',
  name: 'Spring campaign',
  headerBgColor: '#0b1f3a',
  headerTextColor: '#ffffff',
  contentBgColor: '#ffffff',
  contentTextColor: '#334155',
  accentColor: '#0f766e',
  fontFamily: FONT_STACKS[3],
  companyLogo: 'https://cdn.example.com/logo.png',
  footerText: 'Thanks for reaching out.',
  signatureName: 'Pat Lee',
  signatureEmail: 'pat@example.com',
  signatureWebsite: 'https://example.com',
  isActive: false,
};
const all = () => t.s.db.select().from(emailTemplates);
const active = async (type: 'contact_notification' | 'contact_response') =>
  (
    await t.s.db
      .select()
      .from(emailTemplates)
      .where(and(eq(emailTemplates.templateType, type), eq(emailTemplates.isActive, true)))
  ).map((r) => r.id);
const create = async (body: Record<string, unknown>) => {
  const res = await t.as(t.admin, 'POST', '/api/admin/email-templates', body);
  expect(res.status).toBe(201);
  return res.json();
};

describe('[LEADS][TEMPLATES] /api/admin/email-templates', { timeout: 60_000 }, () => {
  it('admin only: 401 signed out, 403 for a non-admin', async () => {
    expect((await t.s.request('/api/admin/email-templates')).status).toBe(401);
    expect((await t.as(t.user, 'GET', '/api/admin/email-templates')).status).toBe(403);
    expect((await t.as(t.user, 'POST', '/api/admin/email-templates', base)).status).toBe(403);
    expect((await t.as(t.user, 'POST', '/api/admin/email-templates/test', { template: base })).status).toBe(403);
  });

  it('lists the seeded templates, one active per type', async () => {
    const list = await (await t.as(t.admin, 'GET', '/api/admin/email-templates')).json();
    expect(list.map((r: { templateType: string }) => r.templateType).sort()).toEqual(['contact_notification', 'contact_response']);
    expect(list.every((r: { isActive: boolean }) => r.isActive)).toBe(true);
  });

  it('creates with the defaults of a new template: a response template, inactive, the default colours and font', async () => {
    const row = await create({
      name: 'Minimal',
      footerText: 'Bye',
      signatureName: 'Team',
      signatureEmail: 'team@example.com',
      signatureWebsite: 'https://example.com',
    });
    expect(row).toMatchObject({
      templateType: 'contact_response',
      isActive: false,
      headerBgColor: DEFAULT_TEMPLATE.headerBgColor,
      accentColor: DEFAULT_TEMPLATE.accentColor,
      fontFamily: DEFAULT_TEMPLATE.fontFamily,
      companyLogo: null,
    });
  });

  it.each([
    ['Arial, sans-serif', FONT_STACKS[2]],
    ["'Segoe UI', sans-serif", FONT_STACKS[0]],
    ['"Open Sans"', FONT_STACKS[1]],
    ['georgia, serif', FONT_STACKS[3]],
    [' Roboto ', FONT_STACKS[4]],
    [FONT_STACKS[2], FONT_STACKS[2]],
  ])('takes the font %j by its first family and stores the offered stack %j', async (fontFamily, stored) => {
    const row = await create({ ...base, name: `Font ${fontFamily}`, fontFamily });
    expect(row.fontFamily).toBe(stored);
  });

  it.each([
    [{ headerBgColor: '#12345' }, 'Invalid hex color'],
    [{ accentColor: 'red' }, 'Invalid hex color'],
    [{ contentTextColor: '#12345g' }, 'Invalid hex color'],
    [{ headerTextColor: '#fff;background:url(x)' }, 'Invalid hex color'],
    [{ name: ' ' }, 'Name is required'],
    [{ name: 'n'.repeat(201) }, 'Must be at most 200 characters'],
    [{ fontFamily: 'Comic Sans MS' }, 'Font family must be one of: Segoe UI, Open Sans, Arial, Georgia, Roboto'],
    [{ fontFamily: 'Comic Sans MS, Arial, sans-serif' }, 'Font family must be one of: Segoe UI, Open Sans, Arial, Georgia, Roboto'],
    [{ fontFamily: '' }, 'Font family must be one of: Segoe UI, Open Sans, Arial, Georgia, Roboto'],
    [{ fontFamily: 12 }, 'Font family must be one of: Segoe UI, Open Sans, Arial, Georgia, Roboto'],
    [{ signatureEmail: 'pat@' }, 'Signature email must be a valid email address'],
    [{ signatureWebsite: 'javascript:alert(1)' }, 'Signature website must be a valid URL (http:// or https://)'],
    [{ signatureWebsite: 'example.com' }, 'Signature website must be a valid URL (http:// or https://)'],
    [{ companyLogo: 'javascript:alert(1)' }, URL_MESSAGE],
    [{ footerText: '' }, 'Footer text is required'],
    [{ templateType: 'newsletter' }, 'Choose a template type'],
    [{ isActive: 'yes' }, 'Invalid isActive'],
  ])('refuses %j with 400 and its message, creating nothing', async (patch, message) => {
    const before = (await all()).length;
    const res = await t.as(t.admin, 'POST', '/api/admin/email-templates', { ...base, ...patch });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect((await all()).length).toBe(before);
  });

  it('one active per type, enforced on the server: activating one deactivates the others of its type only', async () => {
    const [notification] = await active('contact_notification');
    const a = await create({ ...base, name: 'A', isActive: true });
    expect(await active('contact_response')).toEqual([a.id]);
    expect(await active('contact_notification')).toEqual([notification]);
    const b = await create({ ...base, name: 'B' });
    const res = await t.as(t.admin, 'PATCH', `/api/admin/email-templates/${b.id}`, { isActive: true, version: b.version });
    expect(res.status).toBe(200);
    expect(await active('contact_response')).toEqual([b.id]);
    // Two administrators activating different templates at once still leave exactly one.
    const fresh = async (id: number) => (await t.s.db.select().from(emailTemplates).where(eq(emailTemplates.id, id)))[0]!;
    const [ra, rb] = await Promise.all([
      t.as(t.admin, 'PATCH', `/api/admin/email-templates/${a.id}`, { isActive: true }),
      t.as(t.admin, 'PATCH', `/api/admin/email-templates/${b.id}`, { isActive: true, name: 'B2' }),
    ]);
    expect([ra.status, rb.status].every((s) => s === 200 || s === 409)).toBe(true);
    expect(await active('contact_response')).toHaveLength(1);
    // Moving the active response template to the notification type takes over that type.
    const winner = (await active('contact_response'))[0]!;
    const moved = await t.as(t.admin, 'PATCH', `/api/admin/email-templates/${winner}`, {
      templateType: 'contact_notification',
      version: (await fresh(winner)).version,
    });
    expect(moved.status).toBe(200);
    expect(await active('contact_notification')).toEqual([winner]);
    expect(await active('contact_response')).toEqual([]);
  });

  it('a stale version is refused with 409 and changes nothing', async () => {
    const row = await create({ ...base, name: 'Versioned' });
    expect((await t.as(t.admin, 'PATCH', `/api/admin/email-templates/${row.id}`, { name: 'First', version: row.version })).status).toBe(
      200,
    );
    const stale = await t.as(t.admin, 'PATCH', `/api/admin/email-templates/${row.id}`, { name: 'Second', version: row.version });
    expect(stale.status).toBe(409);
    expect((await t.s.db.select().from(emailTemplates).where(eq(emailTemplates.id, row.id)))[0]!.name).toBe('First');
    expect((await t.as(t.admin, 'PATCH', `/api/admin/email-templates/${row.id}`, { accentColor: 'teal' })).status).toBe(400);
  });

  it('the next notification is rendered with the template just activated; deleting it falls back to the default look', async () => {
    // A real business mailbox to notify (the seeded one is an example address, which never is).
    await t.s.db.update(contactInfo).set({ email: 'sales@harbor-federal.com' }).where(eq(contactInfo.isActive, true));
    const tpl = await create({ ...base, templateType: 'contact_notification', name: 'Loud', headerBgColor: '#ff00aa', isActive: true });
    const send = () =>
      t.s.request('/api/contact', {
        method: 'POST',
        json: { name: 'Jo Buyer', email: 'jo@agency.gov', message: 'Need a quote on kitchen machinery.', elapsedMs: 9000 },
      });
    expect((await send()).status).toBe(201);
    const [first] = await t.s.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'contact.notification'))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(first!.htmlBody).toContain('background:#ff00aa');
    expect(first!.htmlBody).toContain(FONT_STACKS[3].replace(/'/g, '&#39;'));

    const del = await t.as(t.admin, 'DELETE', `/api/admin/email-templates/${tpl.id}`);
    expect(del.status).toBe(200);
    expect((await t.as(t.admin, 'DELETE', `/api/admin/email-templates/${tpl.id}`)).status).toBe(404);
    expect((await send()).status).toBe(201);
    const [second] = await t.s.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'contact.notification'))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(second!.htmlBody).toContain(`background:${DEFAULT_TEMPLATE.headerBgColor}`);
  });

  it("'Send test e-mail' queues the dialog's template with sample content to the administrator; a bad template queues nothing", async () => {
    const res = await t.as(t.admin, 'POST', '/api/admin/email-templates/test', { template: { ...base, accentColor: '#abcdef' } });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ to: 'admin@example.com' });
    const [mail] = await t.s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'template.test')).orderBy(desc(mailOutbox.id)).limit(1);
    expect(mail).toMatchObject({
      toAddress: 'admin@example.com',
      subject: '[Test] Re: RFQ 36C10X26Q0123 – Your inquiry to Sterling Federal Procurement',
    });
    expect(mail!.htmlBody).toContain('#abcdef');
    expect(mail!.textBody).toContain('Dear Jane Buyer,');

    const before = (await t.s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'template.test'))).length;
    const bad = await t.as(t.admin, 'POST', '/api/admin/email-templates/test', { template: { ...base, accentColor: 'x' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('Invalid hex color');
    const badTo = await t.as(t.admin, 'POST', '/api/admin/email-templates/test', { template: base, to: 'a@b.com, c@d.com' });
    expect(badTo.status).toBe(400);
    expect((await t.s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'template.test'))).length).toBe(before);
  });

  it('[SECURITY][RELAY]: a test e-mail goes only to the administrator or the inquiry recipients, at most 10 an hour per administrator', async () => {
    const tests = async () => (await t.s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'template.test'))).length;
    const send = (to?: string) => t.as(t.admin, 'POST', '/api/admin/email-templates/test', { template: base, ...(to ? { to } : {}) });
    const before = await tests();
    // Anyone else's address, at any domain: refused, nothing queued.
    for (const to of ['victim@another-domain.example', 'someone@gmail.com', 'ADMIN@example.com.evil.example']) {
      const res = await send(to);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(
        'A test e-mail goes only to your own address or to the addresses that receive new inquiries.',
      );
    }
    expect(await tests()).toBe(before);
    // Its own address (any case) and the configured inquiry recipient are allowed.
    expect((await send('Admin@Example.com')).status).toBe(202);
    expect((await send('leads@harbor-federal-supply.com')).status).toBe(202);
    // The earlier test of this file sent one: eleven in all is one too many.
    let sent = 3;
    while (sent < 10) {
      expect((await send()).status).toBe(202);
      sent++;
    }
    const eleventh = await send();
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await eleventh.json()).message).toBe('At most 10 test e-mails an hour. Please try again later.');
    expect(await tests()).toBe(before + 9);
  });
});
