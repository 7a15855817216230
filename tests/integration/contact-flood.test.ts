import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactSubmissions, mailOutbox } from '#server/db/schema/index.ts';
import { createMailTransport } from '#server/mail/transport.ts';
import { inboxPerDay } from '#server/services/contact.ts';
import { immediatePerHour } from '#server/services/lead-digest.ts';
import { byStatus, closeSenders, inParallel, loopback, postJson, type Sender } from './helpers/flood';
import { startTestServer, type TestServer } from './helpers/server';
import { SmtpSink, decodeWords, parseMail } from './helpers/smtp';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const { deliverDue, sendLeadDigest } = bundleApi;

/*
 * The two shapes of flood that closed the contact form for everybody under the old global cap,
 * replayed from real source addresses (no proxy): 11 addresses posting 301 times each, then 1,000
 * addresses posting 5 times each. A visitor from a fresh address afterwards must get in, land in
 * the inbox and reach the staff, whose mail for the hour stays at 20 e-mails plus one digest.
 */

let s: TestServer;
let sink: SmtpSink;
let dataDir: string;
const STAFF = 'leads@harbor-federal-supply.com';

beforeAll(async () => {
  sink = await SmtpSink.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contact-flood-'));
  process.env.DATA_DIR = dataDir;
  process.env.SMTP_URL = sink.url;
  process.env.CONTACT_NOTIFY_TO = STAFF;
  resetEnvCache();
  s = await startTestServer();
}, 180_000);
afterAll(async () => {
  closeSenders();
  await s?.close();
  await sink?.stop();
  delete process.env.CONTACT_NOTIFY_TO;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const inquiry = (tag: string) => ({
  name: `Sender ${tag}`,
  email: `sender-${tag.replace(/\W/g, '-')}@bulk-mailer.net`,
  company: 'Bulk Co',
  message: `Automated message ${tag} offering services.`,
  elapsedMs: 12_000,
  website: '',
});
const post = (body: unknown, sender: Sender) => postJson(s.url, '/api/contact', body, sender);
const submissions = async (where?: SQL) => (await s.db.select({ n: count() }).from(contactSubmissions).where(where))[0]!.n;

/** Every queued message delivered to the SMTP sink. */
async function deliverAll(): Promise<void> {
  const smtp = createMailTransport();
  while ((await deliverDue(s.db, smtp, { batch: 200 })).sent > 0);
  await sink.sync();
}

describe('[SECURITY][LEADS][FLOOD] floods from some addresses never refuse anyone else', { timeout: 900_000 }, () => {
  it('11 × 301, then 1,000 × 5, then a fresh visitor: 201, in the inbox, notified; staff mail 20 plus one digest', async () => {
    const started = Date.now();
    // Shape 1: eleven addresses, 301 posts each, interleaved as a botnet sends them.
    const few = Array.from({ length: 11 * 301 }, (_, i) => ({ from: loopback(i % 11), tag: `a${i % 11}-${Math.floor(i / 11)}` }));
    const first = await inParallel(few, 16, ({ from, tag }) => post(inquiry(tag), { localAddress: from }));
    expect(byStatus(first)).toEqual({ 201: 11 * 301 });
    const shape1 = Date.now() - started;

    // Shape 2: a thousand addresses, 5 posts each.
    const many = Array.from({ length: 1000 * 5 }, (_, i) => ({
      from: loopback(100 + (i % 1000)),
      tag: `b${i % 1000}-${Math.floor(i / 1000)}`,
    }));
    const second = await inParallel(many, 16, ({ from, tag }) => post(inquiry(tag), { localAddress: from }));
    expect(byStatus(second)).toEqual({ 201: 5000 });
    const shape2 = Date.now() - started - shape1;

    // Each of the eleven got its day's allowance into the inbox; the rest is kept as spam, with the reason.
    const perAddressSpam = 301 - inboxPerDay();
    expect(await submissions(eq(contactSubmissions.isSpam, true))).toBe(11 * perAddressSpam);
    expect(await submissions(and(eq(contactSubmissions.isSpam, true), eq(contactSubmissions.spamReason, 'flood')))).toBe(
      11 * perAddressSpam,
    );
    const [one] = await s.db
      .select()
      .from(contactSubmissions)
      .where(eq(contactSubmissions.ipAddress, loopback(3)))
      .limit(1);
    expect(one!.ipAddress).toBe('127.0.0.5');

    // A visitor from an address of its own.
    const visitor = {
      name: 'Dana Whitfield',
      email: 'dana.whitfield@va.gov',
      company: 'Veterans Affairs, Network Contracting Office 7',
      message: 'We need a quote for 40 rugged laptops delivered by June.',
      elapsedMs: 25_000,
      website: '',
    };
    const answer = await post(visitor, { localAddress: '127.200.0.9' });
    expect(answer.status).toBe(201);
    const { id } = JSON.parse(answer.body) as { id: number };
    const [row] = await s.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id));
    expect(row).toMatchObject({ isSpam: false, spamReason: null, status: 'pending', ipAddress: '127.200.0.9' });
    expect(await submissions(eq(contactSubmissions.isSpam, false))).toBe(11 * inboxPerDay() + 5000 + 1);

    // The hour's immediate notifications: 20, across all of it.
    await deliverAll();
    const immediate = sink.to(STAFF);
    expect(immediate).toHaveLength(immediatePerHour());
    expect(immediate.every((m) => decodeWords(parseMail(m.raw).header('subject')!).startsWith('New inquiry from'))).toBe(true);
    // The visitor came after them: held for the digest, still in the inbox.
    expect(row!.heldForDigest).toBe(true);
    const held = 11 * inboxPerDay() + 5000 + 1 - immediatePerHour();
    expect(await submissions(eq(contactSubmissions.heldForDigest, true))).toBe(held);

    // An hour later the digest job runs (on any instance) and tells the rest in one message.
    const later = new Date(Date.now() + 60 * 60 * 1000);
    const digest = await sendLeadDigest(s.db, { now: later });
    expect(digest).toEqual({ held, spam: 11 * perAddressSpam, flood: 11 * perAddressSpam, to: [STAFF] });
    expect(await sendLeadDigest(s.db, { now: later })).toBeNull();
    expect(await submissions(eq(contactSubmissions.heldForDigest, true))).toBe(0);
    await deliverAll();
    const mails = sink.to(STAFF).map((m) => parseMail(m.raw));
    expect(mails).toHaveLength(immediatePerHour() + 1);
    const last = mails.at(-1)!;
    expect(decodeWords(last.header('subject')!)).toBe(
      `${held.toLocaleString('en-US')} more inquiries; ${(11 * perAddressSpam).toLocaleString('en-US')} held as spam; open the inbox`,
    );
    expect(last.text).toContain('http://localhost:4321/admin#contacts');
    // The newest first: the visitor, named with the company, and nothing written for a visitor.
    expect(last.text).toContain('- Dana Whitfield (Veterans Affairs, Network Contracting Office 7)');
    expect(last.text).not.toContain('rugged laptops');
    expect(last.text).not.toMatch(/thank you for/i);
    const [queued] = await s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'contact.digest'));
    expect(queued).toMatchObject({ status: 'sent', toAddress: STAFF });

    // The server stayed healthy throughout.
    expect((await s.request('/healthz')).status).toBe(200);
    console.log(`flood: shape 1 in ${shape1} ms, shape 2 in ${shape2} ms, all in ${Date.now() - started} ms`);
  });
});
