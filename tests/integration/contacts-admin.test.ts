import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contactInfo, contactResponses, contactSubmissions, emailTemplates, mailOutbox } from '#server/db/schema/index.ts';
import { createMailTransport } from '#server/mail/transport.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';
import { SmtpSink, decodeWords, parseMail } from './helpers/smtp';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const { deliverDue } = bundleApi;

let t: AdminTestContext;
let sink: SmtpSink;
let dataDir: string;

beforeAll(async () => {
  sink = await SmtpSink.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contacts-admin-'));
  process.env.DATA_DIR = dataDir;
  process.env.SMTP_URL = sink.url;
  delete process.env.CONTACT_NOTIFY_TO;
  resetEnvCache();
  t = await startAdminContext();
  // A real business mailbox in place of the seeded example (a placeholder is never a Reply-To).
  await t.s.db.update(contactInfo).set({ email: 'sales@harbor-federal.com' }).where(eq(contactInfo.isActive, true));
}, 180_000);
afterAll(async () => {
  await t?.s.close();
  await sink?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const human = { elapsedMs: 12_000, website: '' };
async function submit(patch: Record<string, unknown> = {}) {
  const res = await t.s.request('/api/contact', {
    method: 'POST',
    json: {
      name: 'Jane Buyer',
      email: 'jane@agency.gov',
      company: 'VA',
      phone: '555 0100',
      message: 'We need 40 laptops by June.',
      ...human,
      ...patch,
    },
  });
  expect(res.status).toBe(201);
  return (await res.json()).id as number;
}
const row = async (id: number) => (await t.s.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id)))[0]!;
async function deliver() {
  await deliverDue(t.s.db, createMailTransport(), { batch: 500 });
  await sink.sync();
}

describe('[LEADS][API] admin only', () => {
  it.each([
    ['GET', '/api/contact-submissions', undefined],
    ['GET', '/api/contact-submissions/export', undefined],
    ['GET', '/api/contact-submissions/counts', undefined],
    ['GET', '/api/contact-submissions/1', undefined],
    ['PATCH', '/api/contact-submissions/1/status', { status: 'completed' }],
    ['POST', '/api/contact-submissions/1/respond', { message: 'Hello there' }],
    ['PATCH', '/api/contact-submissions/1/spam', { isSpam: false }],
  ])('%s %s: 401 signed out, 403 for a non-admin', async (method, url, body) => {
    const out = await t.s.request(url, { method, ...(body ? { json: body } : {}) });
    expect(out.status).toBe(401);
    expect((await out.json()).message).toBe('Authentication required');
    const user = await t.as(t.user, method, url, body);
    expect(user.status).toBe(403);
    expect((await user.json()).message).toBe('Administrator access required');
  });
});

describe('[LEADS][API] GET /api/contact-submissions', () => {
  it('without a view, lists both views newest first with the spam flag and responses, without the visitor address', async () => {
    const a = await submit({ name: 'First Buyer' });
    const b = await submit({ name: 'Second Buyer', website: 'http://spam.example' });
    const res = await t.as(t.admin, 'GET', '/api/contact-submissions');
    expect(res.status).toBe(200);
    const list = await res.json();
    const ids = list.map((s: { id: number }) => s.id);
    expect(ids.indexOf(b)).toBeLessThan(ids.indexOf(a));
    const first = list.find((s: { id: number }) => s.id === a);
    expect(first).toMatchObject({
      name: 'First Buyer',
      email: 'jane@agency.gov',
      company: 'VA',
      phone: '555 0100',
      status: 'pending',
      isSpam: false,
      responses: [],
    });
    expect(first).not.toHaveProperty('ipAddress');
    expect(first).not.toHaveProperty('messageId');
    expect(list.find((s: { id: number }) => s.id === b)).toMatchObject({ isSpam: true, spamReason: 'honeypot' });
  });
});

describe('[LEADS][API] PATCH /api/contact-submissions/{id}/status', () => {
  it('sets any of the three statuses and records who did it', async () => {
    const id = await submit();
    for (const status of ['in_progress', 'completed', 'pending'] as const) {
      const res = await t.as(t.admin, 'PATCH', `/api/contact-submissions/${id}/status`, { status });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id, status });
      expect((await row(id)).status).toBe(status);
    }
    const audit = await t.s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'contact-submission'), eq(auditLog.entityId, String(id))));
    expect(audit).toHaveLength(3);
    expect(audit[0]!.actorName).toBe('admin');
  });

  it.each([
    [{ status: 'archived' }, 400, 'Status must be pending, in progress or completed'],
    [{}, 400, 'Status must be pending, in progress or completed'],
    [{ status: 3 }, 400, 'Status must be pending, in progress or completed'],
  ])('refuses %j with %i and changes nothing', async (body, code, message) => {
    const id = await submit();
    const res = await t.as(t.admin, 'PATCH', `/api/contact-submissions/${id}/status`, body);
    expect(res.status).toBe(code);
    expect((await res.json()).message).toBe(message);
    expect((await row(id)).status).toBe('pending');
  });

  it('404 for an unknown submission, 400 for an id that is not one', async () => {
    expect((await t.as(t.admin, 'PATCH', '/api/contact-submissions/999999/status', { status: 'completed' })).status).toBe(404);
    expect((await t.as(t.admin, 'PATCH', '/api/contact-submissions/abc/status', { status: 'completed' })).status).toBe(400);
  });
});

describe('[LEADS][API] POST /api/contact-submissions/{id}/respond', { timeout: 60_000 }, () => {
  it('refuses a blank or oversize reply with 400 and stores nothing', async () => {
    const id = await submit();
    for (const [body, message] of [
      [{ message: '   ' }, 'Response must not be blank'],
      [{}, 'Response must not be blank'],
      [{ message: 'x'.repeat(10_001) }, 'Must be at most 10000 characters'],
    ] as const) {
      const res = await t.as(t.admin, 'POST', `/api/contact-submissions/${id}/respond`, body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
    expect(await t.s.db.select().from(contactResponses).where(eq(contactResponses.submissionId, id))).toHaveLength(0);
    expect((await row(id)).status).toBe('pending');
  });

  it('stores the reply with sentAt and its outbox message, e-mails the visitor threaded under the inquiry, and shows delivery', async () => {
    await t.s.db
      .update(emailTemplates)
      .set({ accentColor: '#abcdef', signatureName: 'Pat at Sterling' })
      .where(and(eq(emailTemplates.templateType, 'contact_response'), eq(emailTemplates.isActive, true)));
    const id = await submit({ name: 'Rita Reply', email: 'rita@agency.gov', message: 'Original <question> about laptops.' });
    const root = (await row(id)).messageId!;
    expect(root).toMatch(/^<inquiry\.[0-9a-f-]+@localhost>$/);

    const res = await t.as(t.admin, 'POST', `/api/contact-submissions/${id}/respond`, { message: 'Thanks <b>Rita</b>, a quote follows.' });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.status).toBe('in_progress');
    expect(body.responses).toHaveLength(1);
    expect(body.responses[0]).toMatchObject({
      message: 'Thanks <b>Rita</b>, a quote follows.',
      sentBy: 'admin',
      delivery: { status: 'pending' },
    });
    expect(new Date(body.responses[0].sentAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const [stored] = await t.s.db.select().from(contactResponses).where(eq(contactResponses.submissionId, id));
    const [out] = await t.s.db.select().from(mailOutbox).where(eq(mailOutbox.id, stored!.outboxId!));
    expect(out).toMatchObject({
      kind: 'contact.response',
      toAddress: 'rita@agency.gov',
      replyTo: 'sales@harbor-federal.com',
      inReplyTo: root,
      references: root,
    });

    const second = await (
      await t.as(t.admin, 'POST', `/api/contact-submissions/${id}/respond`, { message: 'And the delivery date.' })
    ).json();
    const [, out2Row] = await t.s.db
      .select()
      .from(contactResponses)
      .where(eq(contactResponses.submissionId, id))
      .orderBy(contactResponses.id);
    const [out2] = await t.s.db.select().from(mailOutbox).where(eq(mailOutbox.id, out2Row!.outboxId!));
    expect(out2).toMatchObject({ inReplyTo: out!.messageId, references: `${root} ${out!.messageId}` });
    expect(second.responses).toHaveLength(2);

    await deliver();
    const mails = sink.to('rita@agency.gov');
    expect(mails).toHaveLength(2);
    const mail = parseMail(mails.find((m) => parseMail(m.raw).header('message-id') === out!.messageId)!.raw);
    expect(mail.header('in-reply-to')).toBe(root);
    expect(mail.header('references')).toBe(root);
    expect(mail.header('reply-to')).toBe('sales@harbor-federal.com');
    expect(decodeWords(mail.header('subject')!)).toBe('Re: Your inquiry to Sterling Federal Procurement');
    expect(mail.html).toContain('Thanks &lt;b&gt;Rita&lt;/b&gt;, a quote follows.');
    expect(mail.html).toContain('Original &lt;question&gt; about laptops.');
    expect(mail.html).toContain('#abcdef');
    // The template's colours; the signature is the company's, not the template's signature name.
    expect(mail.html).not.toContain('Pat at Sterling');
    expect(mail.text.startsWith('Thanks <b>Rita</b>, a quote follows.\n\n-- \nSterling Federal Procurement\n')).toBe(true);
    expect(mail.text).not.toContain('Dear');
    expect(mail.text).toContain('> Original <question> about laptops.');
    const mail2 = parseMail(mails.find((m) => parseMail(m.raw).header('message-id') === out2!.messageId)!.raw);
    expect(mail2.header('references')).toBe(`${root} ${out!.messageId}`);

    const listed = (await (await t.as(t.admin, 'GET', '/api/contact-submissions')).json()).find((s: { id: number }) => s.id === id);
    expect(listed.responses.map((r: { delivery: { status: string } }) => r.delivery.status)).toEqual(['sent', 'sent']);
    expect(listed.responses[0].delivery.deliveredAt).toBeTruthy();
  });

  it("refuses to reply to suspected spam until it is marked 'Not spam'", async () => {
    const id = await submit({ website: 'filled by a bot' });
    const refused = await t.as(t.admin, 'POST', `/api/contact-submissions/${id}/respond`, { message: 'Hello' });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe("This inquiry is marked as spam. Mark it 'Not spam' before replying.");
    expect(await t.s.db.select().from(contactResponses).where(eq(contactResponses.submissionId, id))).toHaveLength(0);

    const notSpam = await t.as(t.admin, 'PATCH', `/api/contact-submissions/${id}/spam`, { isSpam: false });
    expect(notSpam.status).toBe(200);
    expect(await notSpam.json()).toMatchObject({ isSpam: false });
    expect((await t.as(t.admin, 'POST', `/api/contact-submissions/${id}/respond`, { message: 'Hello' })).status).toBe(201);
    expect((await t.as(t.admin, 'PATCH', `/api/contact-submissions/${id}/spam`, { isSpam: 'no' })).status).toBe(400);
  });

  it('404 for an unknown submission', async () => {
    expect((await t.as(t.admin, 'POST', '/api/contact-submissions/999999/respond', { message: 'Hello' })).status).toBe(404);
  });
});

describe('[LEADS][API] CSV export', () => {
  it('lists the view asked for, with formula-like cells neutralised', async () => {
    const id = await submit({
      name: '=HYPERLINK("http://evil.example","Click")',
      company: '+cmd|/C calc!A0',
      phone: '-2+3',
      message: '@SUM(A1:A9) and "quotes", commas\nand lines',
    });
    const res = await t.as(t.admin, 'GET', '/api/contact-submissions/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="contact-submissions-\d{4}-\d{2}-\d{2}\.csv"$/);
    const csv = (await res.text()).replace(/^\uFEFF/, '');
    expect(csv.split('\r\n')[0]).toBe(
      '"ID","Received","Received (UTC, ISO 8601)","Name","Email","Company","Phone","Status","Spam","Message","Responses","Last response","Buyer type","Solicitation","Response due","Landing page","Referrer","UTM source","UTM medium","UTM campaign"',
    );
    const line = csv.split('\r\n').find((l) => l.startsWith(`"${id}",`))!;
    expect(line).toContain(`"'=HYPERLINK(""http://evil.example"",""Click"")"`);
    expect(line).toContain(`"'+cmd|/C calc!A0"`);
    expect(line).toContain(`"'-2+3"`);
    expect(csv).toContain(`"'@SUM(A1:A9) and ""quotes"", commas\nand lines"`);
    // No cell starts with a formula character once the quotes are read.
    expect(csv).not.toMatch(/(^|,)"[=+\-@]/m);
  });

  it('follows the view, status and search filters; a bad filter is a 400', async () => {
    const spamId = await submit({ name: 'Spammy Sender', website: 'x' });
    const spam = await (await t.as(t.admin, 'GET', '/api/contact-submissions/export?view=spam')).text();
    expect(spam).toContain('Spammy Sender');
    const inbox = await (await t.as(t.admin, 'GET', '/api/contact-submissions/export?view=inbox&q=spammy')).text();
    expect(inbox).not.toContain(`"${spamId}",`);
    // No view: both, as the list without a view.
    expect(await (await t.as(t.admin, 'GET', '/api/contact-submissions/export?q=spammy')).text()).toContain(`"${spamId}",`);
    const completed = await (await t.as(t.admin, 'GET', '/api/contact-submissions/export?status=completed')).text();
    expect(completed).not.toContain('Spammy Sender');
    const bad = await t.as(t.admin, 'GET', '/api/contact-submissions/export?status=archived');
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('Status must be all, pending, in_progress or completed');
  });

  it('reads as the back office shows it: times in the business time zone (set in the back office) beside ISO, labels, BOM and CRLF', async () => {
    const id = await submit({ name: 'José Núñez-Ærø', buyerType: 'government', solicitation: 'W912-26', responseDue: '2026-12-03' });
    await t.s.db
      .update(contactSubmissions)
      .set({ createdAt: new Date(Date.UTC(2026, 0, 15, 17, 5)) })
      .where(eq(contactSubmissions.id, id));
    expect((await t.as(t.admin, 'PATCH', `/api/contact-submissions/${id}/status`, { status: 'in_progress' })).status).toBe(200);
    const exported = async () => {
      const res = await t.as(t.admin, 'GET', `/api/contact-submissions/export?q=${encodeURIComponent('Núñez')}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      // A UTF-8 byte-order mark first (Excel reads UTF-8 only after one), then CRLF-ended lines.
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes).split('\r\n');
      expect(lines).toHaveLength(3);
      expect(lines[2]).toBe('');
      return lines[1];
    };
    const tz = (method: string, json?: unknown) => t.as(t.admin, method, '/api/admin/time-zone', json);
    expect(await (await tz('GET')).json()).toEqual({ timeZone: 'America/New_York' });
    expect(await exported()).toBe(
      `"${id}","Jan 15, 2026, 12:05 PM EST","2026-01-15T17:05:00.000Z","José Núñez-Ærø","jane@agency.gov","VA","555 0100","In Progress","no","We need 40 laptops by June.","0","","Government buyer","W912-26","Dec 3, 2026","","","","",""`,
    );

    // An unknown zone, an overlong or empty one, or no field: a 400 that changes nothing.
    for (const [body, message] of [
      [{ timeZone: 'Mars/Olympus_Mons' }, 'Choose a time zone from the list'],
      [{ timeZone: `America/${'x'.repeat(60)}` }, 'Time zone must be at most 64 characters'],
      [{ timeZone: ' ' }, 'Time zone is required'],
      [{}, 'Time zone is required'],
    ] as const) {
      const bad = await tz('PUT', body);
      expect(bad.status).toBe(400);
      expect((await bad.json()).message).toBe(message);
    }
    expect(await (await tz('GET')).json()).toEqual({ timeZone: 'America/New_York' });

    const set = await tz('PUT', { timeZone: 'Asia/Tokyo' });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ timeZone: 'Asia/Tokyo' });
    const audited = await t.s.db.select().from(auditLog).where(eq(auditLog.entity, 'business-time-zone'));
    expect(audited.map((a) => [a.before, a.after])).toEqual([[{ timeZone: 'America/New_York' }, { timeZone: 'Asia/Tokyo' }]]);
    expect(await exported()).toMatch(new RegExp(`^"${id}","Jan 16, 2026, 2:05 AM GMT\\+9","2026-01-15T17:05:00.000Z",`));
    expect((await tz('PUT', { timeZone: 'America/New_York' })).status).toBe(200);
  });
});
