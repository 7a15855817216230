import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { contactInfo, contactSubmissions, emailTemplates, mailOutbox, rateLimits } from '#server/db/schema/index.ts';
import { createMailTransport, type MailTransport } from '#server/mail/transport.ts';
import { CONTACT_FLOOD, inboxPerDay } from '#server/services/contact.ts';
import { immediatePerHour } from '#server/services/lead-digest.ts';
import { expectLogs } from './helpers/expected-logs';
import { startTestServer, type TestServer } from './helpers/server';
import { SmtpSink, decodeWords, parseMail, waitFor } from './helpers/smtp';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const { advanceClock, deliverDue, now, resetClock, sendLeadDigest } = bundleApi;

let s: TestServer;
let sink: SmtpSink;
let dataDir: string;
let smtp: MailTransport;
/** The active contact record's e-mail (set in place of the seeded example): where notifications go without CONTACT_NOTIFY_TO. */
const BUSINESS = 'sales@harbor-federal.com';

beforeAll(async () => {
  sink = await SmtpSink.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contact-notify-'));
  process.env.DATA_DIR = dataDir;
  process.env.SMTP_URL = sink.url;
  delete process.env.CONTACT_NOTIFY_TO;
  resetEnvCache();
  s = await startTestServer();
  await s.db.update(contactInfo).set({ email: BUSINESS }).where(eq(contactInfo.isActive, true));
  smtp = createMailTransport();
}, 180_000);
afterAll(async () => {
  resetClock();
  await s?.close();
  await sink?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  // Each test in an hour of its own: the form's counters (shared by every instance, and known to
  // the server until their window ends) start afresh.
  advanceClock(61 * 60 * 1000);
  await s.db.delete(rateLimits);
});

const human = { elapsedMs: 12_000, website: '' };
const valid = {
  name: 'Jane Buyer',
  email: 'jane@agency.gov',
  company: 'VA',
  phone: '555 0100',
  message: 'We need 40 laptops by June.',
  ...human,
};
const post = (body: unknown) => s.request('/api/contact', { method: 'POST', json: body });
const outboxFor = (submissionId: number) => s.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, submissionId));
/** Every queued message delivered, however far in the future its retry is. */
async function deliverAll(transport = smtp, at = Date.now()) {
  const result = await deliverDue(s.db, transport, { now: new Date(at), batch: 500 });
  await sink.sync();
  return result;
}
const byMessageId = (id: string) => sink.received.filter((m) => parseMail(m.raw).header('message-id') === id);

describe('[LEADS][MAIL] the staff are notified of every inquiry', { timeout: 120_000 }, () => {
  it('the notification is queued in the same transaction, rendered with the active template, Reply-To the visitor, text escaped', async () => {
    await s.db
      .update(emailTemplates)
      .set({ headerBgColor: '#123456', footerText: 'Notification footer 7731' })
      .where(and(eq(emailTemplates.templateType, 'contact_notification'), eq(emailTemplates.isActive, true)));
    const res = await post({ ...valid, name: 'Jane <b>Buyer</b>', message: 'Quote <script>alert(1)</script> & "laptops"\nsecond line' });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    // Queued by the time the answer arrives: the same transaction as the submission.
    const rows = await outboxFor(id);
    expect(rows).toHaveLength(1);
    const [submission] = await s.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id));
    expect(rows[0]).toMatchObject({
      kind: 'contact.notification',
      toAddress: BUSINESS,
      replyTo: 'jane@agency.gov',
      status: 'pending',
      messageId: submission!.messageId,
    });

    await deliverAll();
    const mails = byMessageId(submission!.messageId!);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual([BUSINESS]);
    const mail = parseMail(mails[0]!.raw);
    expect(mail.header('reply-to')).toBe('jane@agency.gov');
    expect(decodeWords(mail.header('subject')!)).toBe('New inquiry from Jane <b>Buyer</b> (VA)');
    expect(mail.html).toContain('background:#123456');
    // The template's look applies; its footer is written for visitors, so the staff's notice leaves it out.
    expect(mail.html).not.toContain('Notification footer 7731');
    expect(mail.text).not.toContain('Notification footer 7731');
    expect(mail.html).toContain('Quote &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;laptops&quot;<br>second line');
    expect(mail.html).toContain('Jane &lt;b&gt;Buyer&lt;/b&gt;');
    expect(mail.html).not.toMatch(/<script|<b>/);
    expect(mail.text).toContain('Quote <script>alert(1)</script> & "laptops"\nsecond line');
    expect(mail.text).toContain('Email: jane@agency.gov');
    const [sent] = await outboxFor(id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('recipients cannot be steered by what a visitor types', async () => {
    const before = sink.received.length;
    const res = await post({ ...valid, name: 'Eve\r\nBcc: victim@example.com\r\nTo: other@example.com', company: 'X\nCc: c@example.com' });
    expect(res.status).toBe(201);
    // An e-mail field holding several addresses is not an e-mail address.
    for (const email of [
      'a@example.com, b@example.com',
      'a@example.com\r\nBcc: b@example.com',
      '"x" <a@example.com>',
      'a@example.com;b@example.com',
    ]) {
      const refused = await post({ ...valid, email });
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toBe('Please enter a valid email address');
    }
    await deliverAll();
    const fresh = sink.received.slice(before);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.to).toEqual([BUSINESS]);
    const mail = parseMail(fresh[0]!.raw);
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.headers.has('cc')).toBe(false);
    expect(mail.headers.get('to')).toEqual([BUSINESS]);
    expect(decodeWords(mail.header('subject')!)).toBe(
      'New inquiry from Eve Bcc: victim@example.com To: other@example.com (X Cc: c@example.com)',
    );
    expect(mail.header('reply-to')).toBe('jane@agency.gov');
  });

  it('suspected spam is kept and shown, not notified one by one: the digest tells it, at most once a day when alone', async () => {
    const first = await (await post({ ...valid, website: 'http://spam.example' })).json();
    const second = await (await post({ ...valid, elapsedMs: 300 })).json();
    for (const id of [first.id, second.id]) {
      const [row] = await s.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id));
      expect(row!.isSpam).toBe(true);
      expect(await outboxFor(id)).toHaveLength(0);
    }
    const digest = await sendLeadDigest(s.db);
    expect(digest).toEqual({ held: 0, spam: 2, flood: 0, to: [BUSINESS] });
    await post({ ...valid, website: 'http://spam.example' });
    expect(await sendLeadDigest(s.db, { now: new Date(now().getTime() + 2 * 60 * 60 * 1000) })).toBeNull();
    const notices = await s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'contact.digest'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.toAddress).toBe(BUSINESS);
    expect(notices[0]!.subject).toBe('2 held as spam; open the inbox');
    expect(notices[0]!.textBody).not.toContain('We need 40 laptops');
  });

  it('thirty people behind one agency address (CONTACT_INBOX_PER_DAY raised to 100) are all stored in the inbox: 20 e-mailed at once, 10 in the digest', async () => {
    process.env.CONTACT_INBOX_PER_DAY = '100';
    resetEnvCache();
    onTestFinished(() => {
      delete process.env.CONTACT_INBOX_PER_DAY;
      resetEnvCache();
    });
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await post({
        ...valid,
        name: `Buyer ${i}`,
        email: `buyer${i}@agency.gov`,
        message: `Inquiry number ${i} about laptops.`,
      });
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }
    const rows = await s.db.select().from(contactSubmissions).where(like(contactSubmissions.name, 'Buyer %'));
    expect(rows.filter((r) => ids.includes(r.id) && !r.isSpam)).toHaveLength(30);
    await deliverAll();
    for (let i = 0; i < immediatePerHour(); i++) {
      const [row] = await outboxFor(ids[i]!);
      expect(row).toMatchObject({ status: 'sent', replyTo: `buyer${i}@agency.gov` });
      expect(byMessageId(row!.messageId!)).toHaveLength(1);
    }
    for (const id of ids.slice(immediatePerHour())) expect(await outboxFor(id)).toHaveLength(0);
    const held = rows.filter((r) => r.heldForDigest).map((r) => r.id);
    expect(held.sort((a, b) => a - b)).toEqual(ids.slice(immediatePerHour()));
    // The next digest names them.
    const digest = await sendLeadDigest(s.db, { now: new Date(now().getTime() + 60 * 60 * 1000) });
    expect(digest).toMatchObject({ held: 10, to: [BUSINESS] });
    await deliverAll();
    const mail = parseMail(sink.to(BUSINESS).at(-1)!.raw);
    expect(decodeWords(mail.header('subject')!)).toMatch(/^10 more inquiries;/);
    expect(mail.text).toContain('- Buyer 29 (VA)');
    expect(mail.text).toContain('- Buyer 20 (VA)');
  });

  it("[SECURITY] a flood from one address is contained, not refused: past the day's inbox allowance stored as spam with the reason, and the digest says so", async () => {
    const ids: number[] = [];
    for (let i = 0; i < inboxPerDay() + 5; i++) {
      const res = await post({ ...valid, message: `Flood message number ${i}.` });
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }
    const rows = await s.db.select().from(contactSubmissions).where(like(contactSubmissions.message, 'Flood message number %'));
    expect(inboxPerDay()).toBe(20);
    expect(rows).toHaveLength(inboxPerDay() + 5);
    expect(rows.filter((r) => !r.isSpam)).toHaveLength(inboxPerDay());
    expect(rows.filter((r) => r.isSpam).every((r) => r.spamReason === 'flood')).toBe(true);
    // The genuine ones: 20 e-mailed at once, none left to hold for the digest.
    const notified = await s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'contact.notification'));
    expect(notified.filter((m) => ids.includes(m.submissionId!))).toHaveLength(Math.min(inboxPerDay(), immediatePerHour()));
    expect(rows.filter((r) => r.heldForDigest)).toHaveLength(Math.max(0, inboxPerDay() - immediatePerHour()));
    // The digest (due for the spam alone) tells the five and why they are under Spam. The rows
    // are stamped by the database's clock; the digest reads them on this test's clock.
    await s.db.update(contactSubmissions).set({ createdAt: now() }).where(like(contactSubmissions.message, 'Flood message number %'));
    const digest = await sendLeadDigest(s.db, { now: new Date(now().getTime() + 25 * 60 * 60 * 1000) });
    expect(digest).toMatchObject({ held: 0, flood: 5 });
    await deliverAll();
    const mail = parseMail(sink.to(BUSINESS).at(-1)!.raw);
    expect(mail.text).toContain(
      `came from an address that had already sent 20 inquiries in 24 hours: past 20 a day, one address's messages go to Spam.`,
    );
  });

  it('[LEADS][FLOOD]: only far past any human rate is a message refused, and the refusal says how else to reach the business and when to try again', async () => {
    // The day's count for this address, as if the flood above had gone on to the hard ceiling.
    await post(valid);
    await s.db.update(rateLimits).set({ count: CONTACT_FLOOD.ceilingPerDay }).where(like(rateLimits.key, 'contact:day:%'));
    const count = async () => (await s.db.select({ id: contactSubmissions.id }).from(contactSubmissions)).length;
    const before = await count();
    const res = await post(valid);
    expect(res.status).toBe(429);
    // The day's ceiling: the text says when, from its own Retry-After (a day, not "an hour").
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(23.5 * 3600);
    expect((await res.json()).message).toBe(
      'We are receiving an unusually high number of messages and could not accept yours right now. Please email us at sales@harbor-federal.com, or try again in 24 hours.',
    );
    expect(await count()).toBe(before);
  });
});

describe('[LEADS][MAIL] delivery through SMTP outages', { timeout: 120_000 }, () => {
  async function queueThree(tag: string) {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await (await post({ ...valid, message: `${tag} message ${i} for delivery.` })).json()).id);
    const rows = await s.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.textBody, `%${tag} message %`));
    expect(rows).toHaveLength(3);
    return rows.map((r) => r.messageId!);
  }

  it('SMTP refusing for a while, then accepting: every message delivered exactly once', async () => {
    await deliverAll();
    const messageIds = await queueThree('Outage');
    sink.mode('refuse');
    const t = Date.now();
    const retries = expectLogs('mail delivery failed; will retry');
    try {
      expect(await deliverAll(smtp, t)).toEqual({ sent: 0, failed: 3 });
      expect(await deliverAll(smtp, t + 60_000)).toEqual({ sent: 0, failed: 3 });
      const rows = await s.db.select().from(mailOutbox).where(like(mailOutbox.textBody, '%Outage message %'));
      expect(rows.every((r) => r.status === 'pending' && r.attempts === 2 && /451/.test(r.lastError ?? ''))).toBe(true);
    } finally {
      sink.mode('accept');
      retries.restore();
    }
    expect(retries.count('mail delivery failed; will retry')).toBe(6);
    // Not yet due: the backoff holds the retry back.
    expect(await deliverAll(smtp, t + 61_000)).toEqual({ sent: 0, failed: 0 });
    expect(await deliverAll(smtp, t + 10 * 60_000)).toEqual({ sent: 3, failed: 0 });
    expect(await deliverAll(smtp, t + 60 * 60_000)).toEqual({ sent: 0, failed: 0 });
    for (const id of messageIds) expect(byMessageId(id)).toHaveLength(1);
  });

  it('[RELIABILITY][MAIL]: a permanent refusal (550) is marked failed with the reason at once, never retried', async () => {
    await deliverAll();
    await queueThree('Bounce');
    sink.mode('reject');
    const t = Date.now();
    const refused = expectLogs('mail refused for good by the mail server');
    try {
      expect(await deliverAll(smtp, t)).toEqual({ sent: 0, failed: 3 });
    } finally {
      sink.mode('accept');
      refused.restore();
    }
    expect(refused.count('mail refused for good by the mail server')).toBe(3);
    const rows = await s.db.select().from(mailOutbox).where(like(mailOutbox.textBody, '%Bounce message %'));
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['failed', 1],
      ['failed', 1],
      ['failed', 1],
    ]);
    expect(rows.every((r) => /^Refused by the mail server \(550\): .*No such user here/.test(r.lastError ?? ''))).toBe(true);
    // Never tried again, though the server now accepts.
    expect(await deliverAll(smtp, t + 2 * 60 * 60_000)).toEqual({ sent: 0, failed: 0 });
  });

  it('the SMTP server restarting mid-delivery loses and doubles nothing', async () => {
    await deliverAll();
    const messageIds = await queueThree('Restart');
    sink.mode('hold');
    const heldBefore = sink.heldCount;
    const retries = expectLogs('mail delivery failed; will retry');
    let first: Awaited<ReturnType<typeof deliverAll>>;
    try {
      const pass = deliverAll();
      await waitFor(() => sink.heldCount > heldBefore);
      await sink.restart(); // killed while it held a message it had not answered
      first = await pass;
    } finally {
      retries.restore();
    }
    expect(first.failed).toBeGreaterThan(0);
    expect(retries.count('mail delivery failed; will retry')).toBe(first.failed);
    if (sink.url !== process.env.SMTP_URL) {
      // The old port was taken by another process in the meantime: deliver to the new one.
      process.env.SMTP_URL = sink.url;
      resetEnvCache();
      smtp = createMailTransport();
    }
    expect(await deliverAll(smtp, Date.now() + 10 * 60_000)).toMatchObject({ failed: 0 });
    for (const id of messageIds) expect(byMessageId(id)).toHaveLength(1);
  });

  it('our process stopping mid-delivery loses and doubles nothing: the claim lapses and another pass sends it once', async () => {
    await deliverAll();
    const messageIds = await queueThree('Crash');
    // A worker that claimed the messages and then never came back (the process died).
    const frozen: MailTransport = { kind: 'test', send: () => new Promise(() => {}) };
    void deliverAll(frozen);
    await waitFor(async () => (await s.db.select().from(mailOutbox).where(eq(mailOutbox.status, 'sending'))).length > 0);
    // Another instance, before the claim lapses: nothing to take.
    expect(await deliverAll(smtp, Date.now() + 60_000)).toEqual({ sent: 0, failed: 0 });
    // After it lapses, the messages go out once each.
    expect(await deliverAll(smtp, Date.now() + 3 * 60_000)).toMatchObject({ sent: 3, failed: 0 });
    expect(await deliverAll(smtp, Date.now() + 60 * 60_000)).toEqual({ sent: 0, failed: 0 });
    for (const id of messageIds) expect(byMessageId(id)).toHaveLength(1);
  });
});
