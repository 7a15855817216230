import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactInfo, contactResponses, documents, mailOutbox, users } from '#server/db/schema/index.ts';
import { createMailTransport } from '#server/mail/transport.ts';
import { renderResponse, type ReplySetup } from '#shared/email/render.ts';
import { NO_RECIPIENT_WARNING } from '#shared/lead-delivery.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';
import { expectLogs, type ExpectedLogs } from './helpers/expected-logs';
import { SmtpSink, decodeWords, parseMail } from './helpers/smtp';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const { deliverDue } = bundleApi;

/*
 * The reply as the visitor receives it, through a real SMTP server: the text exactly as written
 * (greeting included, nothing added before it), signed with the company profile and the real
 * contact details, never a placeholder; and the Respond dialog's preview inputs reproduce it.
 */

let t: AdminTestContext;
let sink: SmtpSink;
let dataDir: string;
// The inquiries come before any real address to notify is set: the server says so, as it should.
let said: ExpectedLogs;

beforeAll(async () => {
  said = expectLogs(NO_RECIPIENT_WARNING);
  sink = await SmtpSink.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reply-mail-'));
  process.env.DATA_DIR = dataDir;
  process.env.SMTP_URL = sink.url;
  delete process.env.CONTACT_NOTIFY_TO;
  resetEnvCache();
  t = await startAdminContext();
}, 180_000);
afterAll(async () => {
  said.restore();
  await t?.s.close();
  await sink?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let inquiries = 0;
async function inquiry(email: string, more: Record<string, string> = {}) {
  inquiries += 1;
  const res = await t.s.request('/api/contact', {
    method: 'POST',
    json: {
      name: 'Dana Smith',
      email,
      company: 'GSA',
      message: `Can you quote 40 laptops? (${inquiries})`,
      elapsedMs: 12_000,
      website: '',
      ...more,
    },
  });
  expect(res.status).toBe(201);
  return (await res.json()).id as number;
}

/** Replies, delivers through the SMTP server, and returns the received message with what was queued. */
async function replyAndReceive(id: number, to: string, message: string) {
  const res = await t.as(t.admin, 'POST', `/api/contact-submissions/${id}/respond`, { message });
  expect(res.status).toBe(201);
  const [stored] = await t.s.db.select().from(contactResponses).where(eq(contactResponses.submissionId, id));
  const [queued] = await t.s.db.select().from(mailOutbox).where(eq(mailOutbox.id, stored!.outboxId!));
  await deliverDue(t.s.db, createMailTransport(), { batch: 500 });
  await sink.sync();
  const received = sink.to(to);
  expect(received).toHaveLength(1);
  return { mail: parseMail(received[0]!.raw), queued: queued! };
}

const setup = async () => (await (await t.as(t.admin, 'GET', '/api/admin/reply-setup')).json()) as ReplySetup;

describe('[LEADS][REPLY] the sent reply reads as written', () => {
  const written = 'Hi Dana,\n\nYes, we can. Three TAA-compliant models fit; a quote follows today.\n\nPat';

  it('with the seeded placeholder contact details: the text as written, signed with the company name, no example.com anywhere', async () => {
    const id = await inquiry('dana.one@agency.gov');
    const { mail } = await replyAndReceive(id, 'dana.one@agency.gov', written);
    const start = `${written}\n\n-- \nSterling Federal Procurement\nhttp://localhost:4321\n\n`;
    expect(mail.text.slice(0, start.length)).toBe(start);
    expect(mail.text).not.toContain('Dear');
    expect(mail.text).not.toContain('The Procurement Services Team');
    expect(`${mail.text}\n${mail.html}`).not.toMatch(/example\.com|555\D?010/);
    expect(mail.html).toContain('<strong>Sterling Federal Procurement</strong>');
  });

  it('signs with the profile legal name and the real e-mail and phone; the preview inputs give the very same message', async () => {
    const profile = await (await t.as(t.admin, 'GET', '/api/admin/company-profile')).json();
    const patched = await t.as(t.admin, 'PATCH', '/api/admin/company-profile', {
      legalName: 'Sterling Federal Procurement LLC',
      procurementEmail: 'bids@sterlingfederal.us',
      version: profile.version,
    });
    expect(patched.status).toBe(200);

    // The contact record still holds placeholders: the profile's procurement e-mail signs.
    let s = await setup();
    expect(s.context.sender).toEqual({
      person: null,
      name: 'Sterling Federal Procurement LLC',
      email: 'bids@sterlingfederal.us',
      phone: null,
      website: 'http://localhost:4321',
    });

    const [info] = await t.s.db.select().from(contactInfo).where(eq(contactInfo.isActive, true));
    const res = await t.as(t.admin, 'PATCH', `/api/admin/contact-info/${info!.id}`, {
      email: 'sales@sterlingfederal.us',
      phone: '(202) 460-0100',
      version: info!.version,
    });
    expect(res.status).toBe(200);
    s = await setup();
    expect(s.context.sender).toMatchObject({ email: 'sales@sterlingfederal.us', phone: '(202) 460-0100' });

    const id = await inquiry('dana.two@agency.gov');
    const { mail, queued } = await replyAndReceive(id, 'dana.two@agency.gov', written);
    const start = `${written}\n\n-- \nSterling Federal Procurement LLC\nsales@sterlingfederal.us\n(202) 460-0100\nhttp://localhost:4321\n\n`;
    expect(mail.text.slice(0, start.length)).toBe(start);
    // Without MAIL_FROM the message is from the business by name, as it is signed.
    expect(mail.header('from')).toBe('Sterling Federal Procurement LLC <no-reply@localhost>');
    expect(mail.html).toContain('href="mailto:sales@sterlingfederal.us"');
    expect(mail.html).toContain('href="tel:2024600100"');
    expect(`${mail.text}\n${mail.html}`).not.toContain('example.com');

    // What the Respond dialog renders from GET /api/admin/reply-setup is what was sent.
    const [submission] = (await (await t.as(t.admin, 'GET', '/api/contact-submissions')).json()).filter((x: { id: number }) => x.id === id);
    const preview = renderResponse(s.look, submission, written, s.context);
    expect(preview.text).toBe(queued.textBody);
    expect(preview.html).toBe(queued.htmlBody);
    expect(preview.subject).toBe(queued.subject);
  });

  it('offers the capability statement the site offers as an absolute link: the generated one, an uploaded one, or none', async () => {
    const generated = { title: 'Capability Statement', url: 'http://localhost:4321/capability-statement.pdf' };
    expect((await setup()).capabilityStatement).toEqual(generated);
    const [doc] = await t.s.db
      .insert(documents)
      .values({
        title: 'Capability Statement 2026',
        category: 'capability',
        isActive: true,
        filePath: '/uploads/documents/cap-2026.pdf',
        fileName: 'cap-2026.pdf',
      })
      .returning();
    expect((await setup()).capabilityStatement).toEqual({
      title: 'Capability Statement 2026',
      url: 'http://localhost:4321/uploads/documents/cap-2026.pdf',
    });
    await t.s.db.update(documents).set({ isActive: false }).where(eq(documents.id, doc!.id));
    expect((await setup()).capabilityStatement).toEqual(generated);
    // "Use generated statement" off and no uploaded one: nothing to insert.
    expect((await t.as(t.admin, 'PUT', '/api/admin/capability-statement', { useGenerated: false })).status).toBe(200);
    expect((await setup()).capabilityStatement).toBeNull();
  });
});

describe("[LEADS][REPLY] signed by the administrator who sends it; the buyer's RFQ number kept", () => {
  const written = 'Hi Dana,\n\nYes, we can quote the laptops.';
  const signature = (cookie: string, body?: unknown) => t.as(cookie, body === undefined ? 'GET' : 'PUT', '/api/user/signature', body);

  it('an administrator edits only their own signature, checked like the form; bad input changes nothing', async () => {
    expect(await (await signature(t.admin)).json()).toEqual({ name: null, title: null, phone: null });
    for (const bad of [
      { name: 'x'.repeat(101), title: '', phone: '' },
      { name: '', title: 'President', phone: '' },
      { name: 'Pat', title: '', phone: '1'.repeat(51) },
      { name: 'Pat', title: '', phone: '', userId: 'someone-else' },
    ]) {
      const res = await signature(t.admin, bad);
      expect(res.status).toBe(400);
      expect(typeof (await res.json()).message).toBe('string');
    }
    expect(await (await signature(t.admin)).json()).toEqual({ name: null, title: null, phone: null });
    expect((await signature(t.user, { name: 'Plain', title: '', phone: '' })).status).toBe(403);

    const saved = await signature(t.admin, { name: ' Marcus Reyes ', title: 'President', phone: '(202) 460-0177' });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ name: 'Marcus Reyes', title: 'President', phone: '(202) 460-0177' });
    // Stored on the signed-in account, and on no other.
    const rows = await t.s.db.select({ username: users.username, name: users.signatureName }).from(users);
    expect(rows.filter((r) => r.name !== null)).toEqual([{ username: 'admin', name: 'Marcus Reyes' }]);
    const s = await setup();
    expect(s.context.sender).toMatchObject({ person: { name: 'Marcus Reyes', title: 'President' }, phone: '(202) 460-0177' });
  });

  it("signs the sent reply with that signature before the company, and keeps the inquiry's RFQ number in the subject", async () => {
    const id = await inquiry('dana.rfq@agency.gov', { solicitation: '36C10X26Q0123' });
    const { mail, queued } = await replyAndReceive(id, 'dana.rfq@agency.gov', written);
    expect(decodeWords(mail.header('subject')!)).toBe('Re: RFQ 36C10X26Q0123 – Your inquiry to Sterling Federal Procurement LLC');
    const start = `${written}\n\n-- \nMarcus Reyes\nPresident\nSterling Federal Procurement LLC\nsales@sterlingfederal.us\n(202) 460-0177\n`;
    expect(mail.text.slice(0, start.length)).toBe(start);
    expect(mail.html).toContain('<strong>Marcus Reyes</strong><br>President<br>Sterling Federal Procurement LLC');
    // The preview renders the same message.
    const [submission] = (await (await t.as(t.admin, 'GET', '/api/contact-submissions')).json()).filter((x: { id: number }) => x.id === id);
    const s = await setup();
    expect(renderResponse(s.look, submission, written, s.context).subject).toBe(queued.subject);
    expect(renderResponse(s.look, submission, written, s.context).text).toBe(queued.textBody);

    // Cleared: replies sign with the company again.
    expect((await signature(t.admin, { name: '', title: '', phone: '' })).status).toBe(200);
    expect((await setup()).context.sender).toMatchObject({ person: null, name: 'Sterling Federal Procurement LLC' });
  });
});
