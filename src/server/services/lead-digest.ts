import { and, count, desc, eq, gt, lte, sql } from 'drizzle-orm';
import { now as clockNow } from '../clock';
import type { Db, Tx } from '../db/client';
import { contactSubmissions } from '../db/schema';
import { env } from '../env';
import { log } from '../log';
import { enqueueMail } from '../mail/outbox';
import { lockJob, recordJobRun, sinceRun } from './job-runs';
import { businessName, notificationRecipients } from './lead-mail';
import { hit } from './rate-limit';

/*
 * Staff mail stays readable whatever arrives: at most LEAD_NOTIFY_PER_HOUR (20) inquiries an hour are
 * e-mailed one by one (counted in the database, across instances); later genuine inquiries are
 * stored in the inbox as usual with `held_for_digest` and told in one digest an hour, which also
 * says how much suspected spam was kept. Spam alone is told at most once a day.
 */

const HOUR_MS = 60 * 60 * 1000;
export const LEAD_DIGEST = {
  everyMs: HOUR_MS,
  /** A digest with only suspected spam to tell goes out at most this often. */
  spamOnlyEveryMs: 24 * HOUR_MS,
  /** How many of the newest held inquiries the digest names. */
  listed: 10,
} as const;

/** How many inquiries an hour are e-mailed one by one (LEAD_NOTIFY_PER_HOUR, 20 unless set). */
export const immediatePerHour = (): number => env().LEAD_NOTIFY_PER_HOUR;

const JOB = 'lead-digest';
interface DigestRun {
  /** When the last digest was queued (ISO). */
  sentAt: string;
  /** When the last digest that had only spam to tell was queued (ISO). */
  spamOnlyAt?: string;
}

/**
 * Until when this process knows the hour's immediate notifications are used up. The counter's
 * window is shared by every instance and only grows until it ends, so there is no need to ask the
 * database again before then: in a flood of genuine-looking messages, no hot row to update for
 * each one.
 */
const usedUp = { untilMs: 0 };

/** Forgets that the hour's immediate notifications were used up (bundle-api.ts `startAfresh`). */
export function forgetUsedUpNotifications(): void {
  usedUp.untilMs = 0;
}

/** Takes one of the hour's immediate notifications for a genuine inquiry; false when they are used up. */
export async function takeNotificationSlot(db: Db, now: Date): Promise<boolean> {
  if (now.getTime() < usedUp.untilMs) return false;
  const slot = await hit(db, 'contact:notify', immediatePerHour(), HOUR_MS, now);
  if (!slot.allowed) usedUp.untilMs = slot.resetAtMs;
  return slot.allowed;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "37 more inquiries; 412 held as spam; open the inbox" (the digest's subject and first line). */
export function digestSummary(held: number, spam: number): string {
  const parts = [
    held > 0 ? plural(held, 'more inquiry', 'more inquiries') : null,
    spam > 0 ? `${spam.toLocaleString('en-US')} held as spam` : null,
  ];
  return [...parts.filter(Boolean), 'open the inbox'].join('; ');
}

/** A visitor's name or company on one short line of the list. */
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim().slice(0, 100);

interface HeldInquiry {
  name: string;
  company: string | null;
}

function digestText(o: { business: string; held: number; newest: HeldInquiry[]; spam: number; flood: number; inboxUrl: string }): string {
  const lines = [`${digestSummary(o.held, o.spam)}: ${o.inboxUrl}`, ''];
  if (o.held > 0) {
    lines.push(
      `${plural(o.held, 'more inquiry', 'more inquiries')} came through the contact form of ${o.business} after the ${immediatePerHour()} e-mailed one by one in an hour. ${o.held === 1 ? 'It is' : 'They are'} in the inbox, not under Spam.`,
      '',
      o.newest.length < o.held ? 'The newest:' : 'They are from:',
      ...o.newest.map((r) => `- ${oneLine(r.name)}${r.company && oneLine(r.company) ? ` (${oneLine(r.company)})` : ''}`),
    );
    if (o.newest.length < o.held) lines.push(`- and ${(o.held - o.newest.length).toLocaleString('en-US')} more`);
    lines.push('');
  }
  if (o.spam > 0) {
    lines.push(
      `${plural(o.spam, 'message', 'messages')} that look automated ${o.spam === 1 ? 'was' : 'were'} kept under Contacts, Spam since the last digest. Mark any real inquiry 'Not spam'; suspected spam is deleted after ${env().SPAM_RETENTION_DAYS} days.`,
      '',
    );
  }
  if (o.flood > 0) {
    const perDay = env().CONTACT_INBOX_PER_DAY;
    lines.push(
      `${o.flood === o.spam ? (o.flood === 1 ? 'It' : 'All of them') : `${o.flood.toLocaleString('en-US')} of them`} came from an address that had already sent ${perDay} inquiries in 24 hours: past ${perDay} a day, one address's messages go to Spam.`,
      '',
    );
  }
  lines.push('This digest is sent at most once an hour.');
  return lines.join('\n');
}

/**
 * Clears every held inquiry and answers how many there were (not counting any since marked as
 * spam) with the newest few, in one statement: an inquiry committed meanwhile stays held for the
 * next digest.
 */
async function clearHeld(tx: Tx): Promise<{ held: number; newest: HeldInquiry[] }> {
  const cleared = tx.$with('cleared').as(
    tx.update(contactSubmissions).set({ heldForDigest: false }).where(eq(contactSubmissions.heldForDigest, true)).returning({
      id: contactSubmissions.id,
      name: contactSubmissions.name,
      company: contactSubmissions.company,
      isSpam: contactSubmissions.isSpam,
      createdAt: contactSubmissions.createdAt,
    }),
  );
  const rows = await tx
    .with(cleared)
    .select({ name: cleared.name, company: cleared.company, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(cleared)
    .where(eq(cleared.isSpam, false))
    .orderBy(desc(cleared.createdAt), desc(cleared.id))
    .limit(LEAD_DIGEST.listed);
  return { held: rows[0]?.total ?? 0, newest: rows.map(({ name, company }) => ({ name, company })) };
}

export interface DigestResult {
  held: number;
  spam: number;
  /** Of the spam, how many came past CONTACT_INBOX_PER_DAY from one address. */
  flood: number;
  to: string[];
}

/**
 * The hourly digest (run by the lead jobs every few minutes on each instance; exactly one sends
 * it): when an hour has passed since the last one and there are held inquiries, or suspected spam
 * and no spam-only digest in the last day, queues one message per recipient through the outbox
 * and clears the held inquiries it tells, in one transaction. Null when nothing was due.
 */
export async function sendLeadDigest(db: Db, opts: { now?: Date } = {}): Promise<DigestResult | null> {
  const now = opts.now ?? clockNow();
  return db.transaction(async (tx) => {
    const last = await lockJob<DigestRun>(tx, JOB);
    if (sinceRun(last?.sentAt, now) < LEAD_DIGEST.everyMs) return null;
    const since = last?.sentAt ? new Date(last.sentAt) : new Date(now.getTime() - LEAD_DIGEST.spamOnlyEveryMs);
    const [{ spam, flood } = { spam: 0, flood: 0 }] = await tx
      .select({ spam: count(), flood: sql<number>`count(*) filter (where ${contactSubmissions.spamReason} = 'flood')`.mapWith(Number) })
      .from(contactSubmissions)
      .where(and(eq(contactSubmissions.isSpam, true), gt(contactSubmissions.createdAt, since), lte(contactSubmissions.createdAt, now)));
    const [anyHeld] = await tx
      .select({ id: contactSubmissions.id })
      .from(contactSubmissions)
      .where(eq(contactSubmissions.heldForDigest, true))
      .limit(1);
    const spamOnlyDue = spam > 0 && sinceRun(last?.spamOnlyAt, now) >= LEAD_DIGEST.spamOnlyEveryMs;
    if (!anyHeld && !spamOnlyDue) return null;

    const to = await notificationRecipients(tx);
    if (to.length === 0) {
      log.warn('no one to send the leads digest to: set CONTACT_NOTIFY_TO or an active contact e-mail');
      return null;
    }
    const { held, newest } = await clearHeld(tx);
    // Everything held was marked as spam meanwhile, and spam alone is not due.
    if (held === 0 && !spamOnlyDue) return null;
    const inboxUrl = new URL('/admin#contacts', env().SITE_URL).toString();
    const subject = digestSummary(held, spam);
    const text = digestText({ business: await businessName(tx), held, newest, spam, flood, inboxUrl });
    for (const address of to) await enqueueMail(tx, { kind: 'contact.digest', to: address, subject, text });
    await recordJobRun<DigestRun>(tx, JOB, {
      sentAt: now.toISOString(),
      spamOnlyAt: held === 0 ? now.toISOString() : last?.spamOnlyAt,
    });
    return { held, spam, flood, to };
  });
}
