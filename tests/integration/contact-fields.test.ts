import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactSubmissions, mailOutbox, rateLimits } from '#server/db/schema/index.ts';
import { createMailTransport } from '#server/mail/transport.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';
import { SmtpSink, decodeWords, parseMail } from './helpers/smtp';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const { deliverDue } = bundleApi;

let t: AdminTestContext;
let sink: SmtpSink;
let dataDir: string;
const STAFF = 'leads@sterling-federal.com';

beforeAll(async () => {
  sink = await SmtpSink.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contact-fields-'));
  process.env.DATA_DIR = dataDir;
  process.env.SMTP_URL = sink.url;
  process.env.CONTACT_NOTIFY_TO = STAFF;
  resetEnvCache();
  t = await startAdminContext();
}, 180_000);
afterAll(async () => {
  delete process.env.CONTACT_NOTIFY_TO;
  await t?.s.close();
  await sink?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.s.db.delete(rateLimits);
});

/** A UTC day `days` from today, YYYY-MM-DD. */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const dana = {
  name: 'Dana Smith',
  email: 'dana.smith@va.gov',
  company: 'VA',
  phone: '',
  message: 'Forty TAA-compliant laptops for three clinics.',
  elapsedMs: 12_000,
  website: '',
};
const post = (body: unknown) => t.s.request('/api/contact', { method: 'POST', json: body });
const count = async (table: typeof contactSubmissions | typeof mailOutbox) => (await t.s.db.select({ id: table.id }).from(table)).length;

describe('[LEADS][FIELDS] POST /api/contact with the buyer fields', { timeout: 60_000 }, () => {
  it('stores them, and GET /api/contact-submissions shows them', async () => {
    const due = dayFromToday(30);
    const res = await post({ ...dana, buyerType: 'government', solicitation: '  36C10X26Q0123 ', responseDue: due });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const [row] = await t.s.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id));
    expect(row).toMatchObject({ buyerType: 'government', solicitation: '36C10X26Q0123', responseDue: due });

    const list = await (await t.as(t.admin, 'GET', '/api/contact-submissions')).json();
    expect(list.find((s: { id: number }) => s.id === id)).toMatchObject({
      name: 'Dana Smith',
      buyerType: 'government',
      solicitation: '36C10X26Q0123',
      responseDue: due,
    });
  });

  it('they are optional: left out, empty or null they are stored as nothing', async () => {
    for (const extra of [
      {},
      { buyerType: '', solicitation: '', responseDue: '' },
      { buyerType: null, solicitation: null, responseDue: null },
    ]) {
      const res = await post({ ...dana, ...extra });
      expect(res.status).toBe(201);
      const { id } = await res.json();
      const [row] = await t.s.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id));
      expect(row).toMatchObject({ buyerType: null, solicitation: null, responseDue: null });
    }
  });

  it.each([
    [{ buyerType: 'agency' }, 'Please choose one of the listed options'],
    [{ buyerType: 'Government buyer' }, 'Please choose one of the listed options'],
    [{ buyerType: 7 }, 'Please choose one of the listed options'],
    [{ solicitation: 's'.repeat(101) }, 'Solicitation or RFQ number must be at most 100 characters'],
    [{ solicitation: { number: 1 } }, 'Solicitation or RFQ number must be text'],
    [{ responseDue: '2026-02-30' }, 'Please enter a valid response due date'],
    [{ responseDue: '12/03/2026' }, 'Please enter a valid response due date'],
    [{ responseDue: `${dayFromToday(3)}T00:00:00Z` }, 'Please enter a valid response due date'],
    [{ responseDue: `${new Date().getUTCFullYear() - 2}-12-31` }, 'Please enter a due date from last year to ten years ahead'],
    [{ responseDue: `${new Date().getUTCFullYear() + 11}-01-01` }, 'Please enter a due date from last year to ten years ahead'],
  ])('refuses %j with 400 and its message, storing and sending nothing', async (extra, message) => {
    const [submissions, mails] = [await count(contactSubmissions), await count(mailOutbox)];
    const res = await post({ ...dana, ...extra });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message });
    expect(await count(contactSubmissions)).toBe(submissions);
    expect(await count(mailOutbox)).toBe(mails);
  });

  it("the specification's own fields keep their messages first", async () => {
    const res = await post({ ...dana, name: 'D', buyerType: 'agency' });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('Name must be at least 2 characters');
  });
});

describe('[LEADS][FIELDS] the staff notification through SMTP', { timeout: 60_000 }, () => {
  it('the subject carries the RFQ number and due date; the body lists the fields and ends with the staff links', async () => {
    const due = dayFromToday(40);
    const [y, m, d] = due.split('-').map(Number) as [number, number, number];
    const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1];
    const dueShort = `${month} ${d}${y === new Date().getUTCFullYear() ? '' : `, ${y}`}`;
    const res = await post({ ...dana, buyerType: 'government', solicitation: '36C10X26Q0123', responseDue: due });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const [queued] = await t.s.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, id));
    await deliverDue(t.s.db, createMailTransport(), { batch: 500 });
    await sink.sync();
    const raw = sink.received.find((r) => parseMail(r.raw).header('message-id') === queued!.messageId);
    expect(raw?.to).toEqual([STAFF]);
    const mail = parseMail(raw!.raw);
    expect(decodeWords(mail.header('subject')!)).toBe(`New inquiry from Dana Smith (VA): RFQ 36C10X26Q0123, due ${dueShort}`);
    expect(mail.header('reply-to')).toBe('dana.smith@va.gov');
    expect(mail.text).toContain('Buyer type: Government buyer\nSolicitation or RFQ: 36C10X26Q0123\nResponse due: ');
    expect(mail.text).toContain(`${month} ${d}, ${y}`);
    expect(mail.text.trimEnd().split('\n').slice(-3)).toEqual([
      '',
      'Answer it in the back office: http://localhost:4321/admin#contacts',
      'Or reply to this e-mail: your reply goes to Dana Smith at dana.smith@va.gov.',
    ]);
    // Nothing written for visitors: the seeded template's footer and signature stay out.
    for (const part of [mail.text, mail.html]) {
      expect(part).not.toMatch(/Thank you for contacting us|We appreciate your interest/);
      expect(part).not.toContain('The Procurement Services Team');
    }
    expect(mail.html).toContain('>Open the inbox</a>');
    expect(mail.html).toContain('Government buyer');
  });
});
