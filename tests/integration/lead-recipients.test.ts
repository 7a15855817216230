/**
 * Who hears of a new inquiry on an install that still has the seeded example contact details:
 * only real addresses ever receive one, the administrators step in for a placeholder contact
 * e-mail, and when nobody real is left the inquiry is still stored while the back office's banner
 * endpoint and /readyz say so. Mail goes to a real SMTP server process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactInfo, contactSubmissions, mailOutbox, rateLimits, users } from '#server/db/schema/index.ts';
import { snapshotContent } from '#server/content/site-content.ts';
import { createMailTransport, type MailTransport } from '#server/mail/transport.ts';
import { buildRelease, releaseClientDir } from '#server/publish/releases.ts';
import { createUser } from '#server/services/users.ts';
import { NO_RECIPIENT_WARNING } from '#shared/lead-delivery.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';
import { expectLogs, type ExpectedLogs } from './helpers/expected-logs';
import { SmtpSink, decodeWords, parseMail } from './helpers/smtp';
import { bundleApi, resetEnvCache } from '../helpers/bundle';

const { deliverDue } = bundleApi;

const OWNER = 'owner@harbor-federal.com';
const SALES = 'sales@harbor-federal.com';
const RELEASES = `.releases-recipients-test-${process.pid}`;
/** An address nobody can receive at: the reserved example domains and top-level names. */
const PLACEHOLDER = /@([^@]+\.)?(example(\.(com|net|org))?|test|invalid|localhost)$/i;

let t: AdminTestContext;
let sink: SmtpSink;
let smtp: MailTransport;
let dataDir: string;
// What this file's configuration makes the server say, on purpose.
const MALFORMED = 'CONTACT_NOTIFY_TO has entries that are not e-mail addresses; they are skipped';
const PLACEHOLDERS = 'CONTACT_NOTIFY_TO has placeholder addresses (example.com, .test, localhost…); they are skipped';
let said: ExpectedLogs;

beforeAll(async () => {
  said = expectLogs(MALFORMED, PLACEHOLDERS, NO_RECIPIENT_WARNING);
  sink = await SmtpSink.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-recipients-'));
  process.env.DATA_DIR = dataDir;
  process.env.SMTP_URL = sink.url;
  process.env.RELEASES_DIR = RELEASES;
  // Only placeholders and a malformed entry: skipped, so the install behaves as if it were unset.
  process.env.CONTACT_NOTIFY_TO = 'ops@example.com, bids@agency.test, not-an-address';
  // The first administrator is the only real address; the seeded contact details are examples.
  process.env.ADMIN_EMAIL = OWNER;
  resetEnvCache();
  t = await startAdminContext();
  // A second administrator whose address is a placeholder: never mailed.
  await createUser(t.s.db, { username: 'helper', email: 'helper@example.com', password: 'helper-admin-pw', role: 'admin' });
  smtp = createMailTransport();
}, 180_000);
afterAll(async () => {
  said.restore();
  await t?.s.close();
  await sink?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(RELEASES, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.s.db.delete(rateLimits);
});

const inquiry = (message: string) => ({ name: 'Jane Buyer', email: 'jane@agency.gov', message, elapsedMs: 9_000, website: '' });
const post = (message: string) => t.s.request('/api/contact', { method: 'POST', json: inquiry(message) });
const delivery = async () => (await t.as(t.admin, 'GET', '/api/admin/lead-delivery')).json();
const readyz = async () => {
  const res = await t.s.request('/readyz');
  return { status: res.status, body: (await res.json()) as { status: string; checks: { leadRecipients: string } } };
};
async function deliverAll() {
  await deliverDue(t.s.db, smtp, { now: new Date(Date.now() + 60 * 60_000), batch: 500 });
  await sink.sync();
}
const setAdminEmail = (email: string) => t.s.db.update(users).set({ email }).where(eq(users.username, 'admin'));
async function setContactEmail(email: string) {
  const [active] = await t.s.db.select().from(contactInfo).where(eq(contactInfo.isActive, true));
  const res = await t.as(t.admin, 'PATCH', `/api/admin/contact-info/${active!.id}`, { email, version: active!.version });
  expect(res.status).toBe(200);
}

describe('[LEADS][RECIPIENTS] a real recipient or a loud warning', { timeout: 120_000 }, () => {
  it('the public contact details never show the seeded examples: live answer, snapshot and built contact page', async () => {
    const res = await t.s.request('/api/contact-info/active');
    const info = await res.json();
    expect(info).toMatchObject({
      isActive: true,
      email: '',
      displayEmail: false,
      phone: '',
      displayPhone: false,
      address: '',
      displayAddress: false,
    });
    expect(info.displayBusinessHours).toBe(true);
    expect(JSON.stringify(info)).not.toMatch(/example\.com|555|Suite 100/);

    const content = await snapshotContent(t.s.db);
    expect(content.contactInfo).toMatchObject({ displayEmail: false, displayPhone: false, displayAddress: false });
    const release = await buildRelease(content);
    const dir = releaseClientDir(release.id);
    for (const page of ['contact.html', 'privacy.html', 'index.html', 'services/federal.html']) {
      const html = fs.readFileSync(path.join(dir, page), 'utf8');
      expect(html, page).not.toMatch(/info@example\.com|\(555\) 010-0100|Suite 100/);
    }
    // With nothing real to offer, the no-script text names no e-mail.
    expect(fs.readFileSync(path.join(dir, 'contact.html'), 'utf8')).not.toContain('You can also email us at');
  });

  it('only the first administrator is real: the inquiry is e-mailed there and never to an example address', async () => {
    expect(await delivery()).toEqual({ recipients: [OWNER], source: 'administrators' });
    const before = sink.received.length;
    const res = await post('Forty laptops, administrator route.');
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const queued = await t.s.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, id));
    expect(queued.map((m) => m.toAddress)).toEqual([OWNER]);
    await deliverAll();
    const fresh = sink.received.slice(before);
    expect(fresh.map((m) => m.to)).toEqual([[OWNER]]);
    expect(decodeWords(parseMail(fresh[0]!.raw).header('subject')!)).toContain('New inquiry from Jane Buyer');
    for (const m of sink.received) for (const to of m.to) expect(to).not.toMatch(PLACEHOLDER);
    expect((await readyz()).body.checks.leadRecipients).toBe('ok');
    // The skipped entries of CONTACT_NOTIFY_TO were said once each, however often it was read.
    expect([said.count(MALFORMED), said.count(PLACEHOLDERS)]).toEqual([1, 1]);
  });

  it('nobody real: the inquiry is stored and answered 201; the banner endpoint and /readyz say so; the instance stays ready', async () => {
    await setAdminEmail('owner@example.com');
    const before = sink.received.length;
    const warned = said.count(NO_RECIPIENT_WARNING);
    const res = await post('Forty laptops, nobody to tell.');
    expect(res.status).toBe(201);
    expect(said.count(NO_RECIPIENT_WARNING)).toBe(warned + 1);
    const { id } = await res.json();
    const [stored] = await t.s.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id));
    expect(stored).toMatchObject({ message: 'Forty laptops, nobody to tell.', isSpam: false });
    expect(await t.s.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, id))).toEqual([]);

    expect(await delivery()).toEqual({ recipients: [], source: 'none' });
    const ready = await readyz();
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', checks: { leadRecipients: 'none' } });

    const test = await t.as(t.admin, 'POST', '/api/admin/lead-delivery/test', {});
    expect(test.status).toBe(409);
    expect(await test.json()).toEqual({ message: NO_RECIPIENT_WARNING });
    await deliverAll();
    expect(sink.received.length).toBe(before);
    await setAdminEmail(OWNER);
  });

  it('a real active contact e-mail is preferred over the administrators, and the public sees it', async () => {
    await setContactEmail(SALES);
    expect(await delivery()).toEqual({ recipients: [SALES], source: 'contact' });
    const res = await post('Forty laptops, contact route.');
    const { id } = await res.json();
    const queued = await t.s.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, id));
    expect(queued.map((m) => m.toAddress)).toEqual([SALES]);
    expect((await snapshotContent(t.s.db)).contactInfo).toMatchObject({ email: SALES, displayEmail: true, displayPhone: false });
  });

  it('Send test inquiry: admin only; Delivered per recipient through SMTP, or the server’s refusal', async () => {
    expect((await t.s.request('/api/admin/lead-delivery/test', { method: 'POST', json: {} })).status).toBe(401);
    expect((await t.as(t.user, 'POST', '/api/admin/lead-delivery/test', {})).status).toBe(403);
    expect((await t.s.request('/api/admin/lead-delivery')).status).toBe(401);
    expect((await t.as(t.user, 'GET', '/api/admin/lead-delivery')).status).toBe(403);

    const before = sink.received.length;
    const ok = await t.as(t.admin, 'POST', '/api/admin/lead-delivery/test', {});
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      recipients: [SALES],
      source: 'contact',
      transport: 'smtp',
      deliveries: [{ to: SALES, outcome: 'delivered', detail: null }],
    });
    // Sent at once, not queued: the sink has it by the time the answer arrives.
    await sink.sync();
    const fresh = sink.received.slice(before);
    expect(fresh.map((m) => m.to)).toEqual([[SALES]]);
    expect(decodeWords(parseMail(fresh[0]!.raw).header('subject')!)).toMatch(/^\[Test\] /);

    sink.mode('refuse');
    try {
      const refused = await t.as(t.admin, 'POST', '/api/admin/lead-delivery/test', {});
      expect(refused.status).toBe(200);
      const body = await refused.json();
      expect(body.deliveries).toHaveLength(1);
      expect(body.deliveries[0]).toMatchObject({ to: SALES, outcome: 'refused' });
      expect(body.deliveries[0].detail).toMatch(/^451 .*Mailbox temporarily unavailable, try again later/);
    } finally {
      sink.mode('accept');
    }
  });

  it('Send test inquiry is limited per administrator: the sixth in ten minutes is refused with 429', async () => {
    for (let i = 0; i < 5; i++) expect((await t.as(t.admin, 'POST', '/api/admin/lead-delivery/test', {})).status).toBe(200);
    const sixth = await t.as(t.admin, 'POST', '/api/admin/lead-delivery/test', {});
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await sixth.json()).message).toBe('Too many test inquiries. Please wait a few minutes and try again.');
  });
});
