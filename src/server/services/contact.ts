import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contactInfo, contactSubmissions } from '../db/schema';
import { HttpError } from '../http';
import { enqueueMail, newMessageId } from '../mail/outbox';
import { CONTACT_MIN_FILL_MS } from '#shared/contact-rules.ts';
import { contactRequestSchema } from '#shared/schemas/contact.ts';
import { withoutPlaceholders } from '#shared/placeholders.ts';
import { businessName, notificationRecipients, queueNotification } from './lead-mail';
import { hit } from './rate-limit';

/**
 * Flood containment for the contact form (not in the spec). A genuine visitor is never turned
 * away: many buyers of one agency share one egress address, so the numbers are far above what
 * people send. Past `notifyPerAddress` in an hour, an address's messages are still stored but
 * held as suspected spam (no e-mail each); only past `storePerAddress` from one address, or
 * `storeTotal` from everyone, is a message refused, and the refusal says how else to reach us.
 */
export const CONTACT_FLOOD = {
  windowMs: 60 * 60 * 1000,
  notifyPerAddress: 60,
  storePerAddress: 300,
  storeTotal: 3000,
  /** At most one "suspected spam is arriving" notice to the staff in this time. */
  spamNoticeMs: 24 * 60 * 60 * 1000,
} as const;

export interface ContactMeta {
  ip: string;
  userAgent: string | null;
}

/**
 * Why a submission looks automated, or null. The honeypot is a field people never see; the
 * fill time is how long the form was open. A request without a fill time (an API client) gets
 * the benefit of the doubt.
 */
function spamReason(body: { website?: string | null; elapsedMs?: number | null }): string | null {
  if (body.website && body.website.trim() !== '') return 'honeypot';
  if (typeof body.elapsedMs === 'number' && body.elapsedMs < CONTACT_MIN_FILL_MS) return 'too fast';
  return null;
}

/** Throws 400 with the first field message the form would show. */
function parse(body: unknown) {
  const result = contactRequestSchema.safeParse(body);
  if (!result.success) throw new HttpError(400, result.error.issues[0]?.message ?? 'Invalid request');
  return result.data;
}

/** The refusal's text, naming the e-mail and phone the public contact panel shows. */
async function refusalMessage(db: Db): Promise<string> {
  const [row] = await db.select().from(contactInfo).where(eq(contactInfo.isActive, true)).limit(1);
  const info = row && withoutPlaceholders(row);
  const ways = [
    info?.displayEmail && info.email ? `email us at ${info.email}` : null,
    info?.displayPhone && info.phone ? `call us at ${info.phone}` : null,
  ].filter(Boolean);
  const other = ways.length > 0 ? `Please ${ways.join(' or ')}, or try again in an hour.` : 'Please try again in an hour.';
  return `We are receiving an unusually high number of messages and could not accept yours right now. ${other}`;
}

/**
 * `POST /api/contact`: validate, count the sender's address against the flood limits, then store
 * the submission and, in the same transaction, queue the staff's notification rendered with the
 * active contact_notification template. Suspected spam is kept with `isSpam` (never dropped) and
 * not notified one by one; the answer does not tell a bot which it was.
 */
export async function submitContact(db: Db, body: unknown, meta: ContactMeta) {
  const input = parse(body);
  const fromAddress = await hit(db, `contact:address:${meta.ip}`, CONTACT_FLOOD.storePerAddress, CONTACT_FLOOD.windowMs);
  if (!fromAddress.allowed) {
    throw new HttpError(429, await refusalMessage(db), { 'retry-after': String(fromAddress.retryAfterSeconds) });
  }
  const all = await hit(db, 'contact:all', CONTACT_FLOOD.storeTotal, CONTACT_FLOOD.windowMs);
  if (!all.allowed) throw new HttpError(429, await refusalMessage(db), { 'retry-after': String(all.retryAfterSeconds) });

  const reason = spamReason(input) ?? (fromAddress.count > CONTACT_FLOOD.notifyPerAddress ? 'flood' : null);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactSubmissions)
      .values({
        name: input.name,
        email: input.email,
        company: input.company || null,
        phone: input.phone || null,
        message: input.message,
        buyerType: input.buyerType || null,
        solicitation: input.solicitation || null,
        responseDue: input.responseDue || null,
        status: 'pending',
        isSpam: reason !== null,
        spamReason: reason,
        ipAddress: meta.ip,
        userAgent: meta.userAgent?.slice(0, 500) ?? null,
        messageId: newMessageId('inquiry'),
      })
      .returning();
    if (reason === null) await queueNotification(tx, row!);
    else if ((await hit(tx, 'contact:spam-notice', 1, CONTACT_FLOOD.spamNoticeMs)).allowed) await queueSpamNotice(tx);
    return { id: row!.id, status: row!.status, createdAt: row!.createdAt };
  });
}

/** A short notice, at most once a day, that suspected spam is being held; no visitor content in it. */
async function queueSpamNotice(tx: Parameters<typeof queueNotification>[0]) {
  const name = await businessName(tx);
  const text = [
    `Messages that look automated are arriving through the contact form of ${name}.`,
    '',
    "They are kept, not lost: review them in the back office under Contacts, Spam, and mark any real inquiry 'Not spam'.",
    'This notice is sent at most once a day.',
  ].join('\n');
  for (const to of await notificationRecipients(tx)) {
    await enqueueMail(tx, { kind: 'contact.spam-notice', to, subject: `Suspected spam held on the ${name} contact form`, text });
  }
}
