import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '#server/db/client.ts';
import { auditLog, contactResponses, contactSubmissions, mailOutbox, rateLimits } from '#server/db/schema/index.ts';
import { resetEnvCache } from '#server/env.ts';
import { LEAD_DIGEST, sendLeadDigest } from '#server/services/lead-digest.ts';
import { deleteOldSpam } from '#server/services/spam-retention.ts';
import { openTestDatabase } from './helpers/db';

/*
 * The leads' background jobs on a real database, called as the job loop of every instance calls
 * them: the daily spam clean-up and the hourly digest, each run by exactly one caller per period.
 */

let h: DbHandle;
const STAFF = 'leads@harbor-federal-supply.com';
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  process.env.CONTACT_NOTIFY_TO = STAFF;
  delete process.env.SPAM_RETENTION_DAYS;
  resetEnvCache();
  h = await openTestDatabase();
});
afterAll(async () => {
  await h?.close();
  delete process.env.CONTACT_NOTIFY_TO;
  delete process.env.SPAM_RETENTION_DAYS;
  resetEnvCache();
});

async function store(rows: { name: string; isSpam?: boolean; ageDays?: number; at?: Date; heldForDigest?: boolean; company?: string }[]) {
  const base = Date.now();
  const inserted = await h.db
    .insert(contactSubmissions)
    .values(
      rows.map((r) => ({
        name: r.name,
        email: 'someone@agency.gov',
        company: r.company ?? null,
        message: `Message from ${r.name}.`,
        isSpam: r.isSpam ?? false,
        spamReason: r.isSpam ? 'flood' : null,
        heldForDigest: r.heldForDigest ?? false,
        createdAt: r.at ?? new Date(base - (r.ageDays ?? 0) * DAY),
      })),
    )
    .returning({ id: contactSubmissions.id, name: contactSubmissions.name });
  return inserted;
}
const names = async () => (await h.db.select({ name: contactSubmissions.name }).from(contactSubmissions)).map((r) => r.name).sort();
const retentionAudit = () => h.db.select().from(auditLog).where(eq(auditLog.entity, 'spam-retention'));

describe('[LEADS][FLOOD] suspected spam is deleted after the retention period, nothing else ever', () => {
  it('deletes spam older than 30 days, keeps newer spam and every inquiry however old; once a day across callers', async () => {
    const [answered] = await store([{ name: 'old inquiry, answered', ageDays: 400 }]);
    await h.db.insert(contactResponses).values({ submissionId: answered!.id, message: 'Thanks, quote attached.' });
    await store([
      { name: 'old inquiry', ageDays: 45 },
      { name: 'old spam 1', isSpam: true, ageDays: 31 },
      { name: 'old spam 2', isSpam: true, ageDays: 90 },
      { name: 'old spam 3', isSpam: true, ageDays: 365 },
      { name: 'new spam', isSpam: true, ageDays: 25 },
      { name: 'today', ageDays: 0 },
    ]);
    // The contact form's finished counters go too; other limits are left alone.
    await h.db.insert(rateLimits).values([
      { key: 'contact:hour:198.51.100.1', count: 61, windowStart: new Date(Date.now() - 2 * DAY) },
      { key: 'contact:day:198.51.100.1', count: 300, windowStart: new Date(Date.now() - 2 * DAY) },
      { key: 'contact:day:198.51.100.2', count: 3, windowStart: new Date(Date.now() - HOUR) },
      { key: 'login:ip:198.51.100.1', count: 2, windowStart: new Date(Date.now() - 2 * DAY) },
    ]);

    // Two instances' job loops at the same moment: one does the work.
    const now = new Date();
    const runs = await Promise.all([deleteOldSpam(h.db, { now }), deleteOldSpam(h.db, { now })]);
    expect(runs.filter(Boolean)).toEqual([{ deleted: 3, days: 30 }]);
    expect(await names()).toEqual(['new spam', 'old inquiry', 'old inquiry, answered', 'today']);
    expect(await h.db.select().from(contactResponses)).toHaveLength(1);
    expect((await h.db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key).sort()).toEqual([
      'contact:day:198.51.100.2',
      'login:ip:198.51.100.1',
    ]);
    const audit = await retentionAudit();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'delete', actorId: 'system', actorName: 'System', after: { deleted: 3, olderThanDays: 30 } });

    // Later the same day: not again, whatever has aged meanwhile.
    await store([{ name: 'aged spam', isSpam: true, ageDays: 40 }]);
    expect(await deleteOldSpam(h.db, { now: new Date(now.getTime() + 23 * HOUR) })).toBeNull();
    expect(await names()).toContain('aged spam');
    expect(await retentionAudit()).toHaveLength(1);

    // The next day it runs again.
    expect(await deleteOldSpam(h.db, { now: new Date(now.getTime() + DAY + HOUR) })).toEqual({ deleted: 1, days: 30 });
    expect(await names()).toEqual(['new spam', 'old inquiry', 'old inquiry, answered', 'today']);
    expect(await retentionAudit()).toHaveLength(2);
  });

  it('SPAM_RETENTION_DAYS sets the period; a day with nothing to delete writes no audit line', async () => {
    process.env.SPAM_RETENTION_DAYS = '7';
    resetEnvCache();
    try {
      await store([{ name: 'week-old spam', isSpam: true, ageDays: 8 }]);
      const inTwoDays = new Date(Date.now() + 2 * DAY + 2 * HOUR);
      // 'new spam' (25 days) and 'week-old spam' are past 7 days; the inquiries stay.
      expect(await deleteOldSpam(h.db, { now: inTwoDays })).toEqual({ deleted: 2, days: 7 });
      expect(await names()).toEqual(['old inquiry', 'old inquiry, answered', 'today']);
      expect((await retentionAudit()).at(-1)).toMatchObject({ after: { deleted: 2, olderThanDays: 7 } });
      expect(await deleteOldSpam(h.db, { now: new Date(inTwoDays.getTime() + DAY + HOUR) })).toEqual({ deleted: 0, days: 7 });
      expect(await retentionAudit()).toHaveLength(3);
    } finally {
      delete process.env.SPAM_RETENTION_DAYS;
      resetEnvCache();
    }
  });
});

describe('[LEADS][MAIL] the hourly digest', () => {
  const digests = () => h.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'contact.digest'));

  it('tells held inquiries, newest first, with the spam since the last digest; clears them in the same transaction', async () => {
    await h.db.delete(contactSubmissions);
    const t0 = Date.now();
    const held = await store(
      Array.from({ length: 13 }, (_, i) => ({
        name: `Buyer ${i}`,
        company: i % 2 ? `Agency ${i}` : undefined,
        heldForDigest: true,
        at: new Date(t0 - (13 - i) * 60_000),
      })),
    );
    // Marked as spam by the staff meanwhile: cleared, but neither counted nor named.
    await h.db.update(contactSubmissions).set({ isSpam: true }).where(eq(contactSubmissions.id, held[0]!.id));
    await store([
      { name: 'Flood', isSpam: true },
      { name: 'Flood', isSpam: true },
    ]);

    const now = new Date(t0 + 60_000);
    const [a, b] = await Promise.all([sendLeadDigest(h.db, { now }), sendLeadDigest(h.db, { now })]);
    expect([a, b].filter(Boolean)).toEqual([{ held: 12, spam: 3, flood: 2, to: [STAFF] }]);
    expect(await h.db.select().from(contactSubmissions).where(eq(contactSubmissions.heldForDigest, true))).toHaveLength(0);
    const [mail] = await digests();
    expect(mail).toMatchObject({ toAddress: STAFF, status: 'pending', subject: '12 more inquiries; 3 held as spam; open the inbox' });
    const list = mail!.textBody.split('\n').filter((l) => l.startsWith('- '));
    expect(list).toEqual([
      '- Buyer 12',
      '- Buyer 11 (Agency 11)',
      '- Buyer 10',
      '- Buyer 9 (Agency 9)',
      '- Buyer 8',
      '- Buyer 7 (Agency 7)',
      '- Buyer 6',
      '- Buyer 5 (Agency 5)',
      '- Buyer 4',
      '- Buyer 3 (Agency 3)',
      '- and 2 more',
    ]);
    expect(list).toHaveLength(LEAD_DIGEST.listed + 1);
    expect(mail!.textBody).toContain('http://localhost:4321/admin#contacts');
    expect(mail!.textBody).toContain('They are in the inbox, not under Spam.');
    expect(mail!.textBody).toContain('deleted after 30 days');

    // Within the hour: nothing, even with more held.
    await store([{ name: 'Late buyer', heldForDigest: true }]);
    expect(await sendLeadDigest(h.db, { now: new Date(now.getTime() + 59 * 60_000) })).toBeNull();
    // An hour on: the next digest, with only what came since.
    expect(await sendLeadDigest(h.db, { now: new Date(now.getTime() + HOUR) })).toEqual({ held: 1, spam: 0, flood: 0, to: [STAFF] });
    expect((await digests()).at(-1)!.subject).toBe('1 more inquiry; open the inbox');
  });

  it('suspected spam alone is told at most once a day, in the digest (no separate notice)', async () => {
    const before = (await digests()).length;
    const start = Date.now() + 3 * HOUR;
    await store([{ name: 'Bot', isSpam: true, at: new Date(start - 60_000) }]);
    expect(await sendLeadDigest(h.db, { now: new Date(start) })).toEqual({ held: 0, spam: 1, flood: 1, to: [STAFF] });
    await store([{ name: 'Bot', isSpam: true, at: new Date(start + HOUR) }]);
    expect(await sendLeadDigest(h.db, { now: new Date(start + 2 * HOUR) })).toBeNull();
    // A held inquiry brings the digest back within the day, with the spam since the last one.
    await store([{ name: 'Real buyer', heldForDigest: true, at: new Date(start + 2 * HOUR) }]);
    expect(await sendLeadDigest(h.db, { now: new Date(start + 3 * HOUR) })).toEqual({ held: 1, spam: 1, flood: 1, to: [STAFF] });
    // Spam alone again only a day after the last spam-only digest.
    await store([{ name: 'Bot', isSpam: true, at: new Date(start + 4 * HOUR) }]);
    expect(await sendLeadDigest(h.db, { now: new Date(start + 5 * HOUR) })).toBeNull();
    expect(await sendLeadDigest(h.db, { now: new Date(start + DAY) })).toEqual({ held: 0, spam: 1, flood: 1, to: [STAFF] });
    const sent = (await digests()).slice(before);
    expect(sent.map((m) => m.subject)).toEqual([
      '1 held as spam; open the inbox',
      '1 more inquiry; 1 held as spam; open the inbox',
      '1 held as spam; open the inbox',
    ]);
    expect(
      await h.db
        .select()
        .from(mailOutbox)
        .where(inArray(mailOutbox.kind, ['contact.spam-notice'])),
    ).toHaveLength(0);
  });
});
