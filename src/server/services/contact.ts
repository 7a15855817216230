import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { contactInfo, contactSubmissions } from '../db/schema';
import { env } from '../env';
import { HttpError } from '../http';
import { now as clockNow } from '../clock';
import { limitKey, storedAddress } from '../client-ip';
import { newMessageId } from '../mail/outbox';
import { CONTACT_MIN_FILL_MS } from '#shared/contact-rules.ts';
import { contactRequestSchema } from '#shared/schemas/contact.ts';
import { withoutPlaceholders } from '#shared/placeholders.ts';
import { takeNotificationSlot } from './lead-digest';
import { queueNotification } from './lead-mail';
import { hit } from './rate-limit';
import { visitOf } from './visits';

/**
 * Flood containment for the contact form (not in the spec). A genuine visitor is never turned
 * away: every limit belongs to one client address (an IPv6 address by its /64), so a flood from
 * some addresses changes nothing for anyone else, and many buyers of one agency behind one egress
 * address still get through. Past `inboxPerDay()` (CONTACT_INBOX_PER_DAY, 20) in 24 hours, an
 * address's messages are stored as suspected spam ('flood', and the digest says how many); only
 * past `ceilingPerDay` is that address refused, which bounds what it can store. Staff e-mail has
 * its own cap (lead-digest.ts).
 */
export const CONTACT_FLOOD = {
  dayMs: 24 * 60 * 60 * 1000,
  ceilingPerDay: 1000,
} as const;

/** How many inquiries one address gets into the inbox in 24 hours (CONTACT_INBOX_PER_DAY, 20 unless set). */
export const inboxPerDay = (): number => env().CONTACT_INBOX_PER_DAY;

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

/** When a refused sender may try again, in words, from the refusal's own Retry-After seconds. */
export function tryAgainIn(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes === 1) return 'in a minute';
  if (minutes < 55) return `in ${minutes} minutes`;
  const hours = Math.round(seconds / 3600);
  return hours <= 1 ? 'in an hour' : `in ${hours} hours`;
}

/** The refusal's text, naming the e-mail and phone the public contact panel shows, and when to try again. */
async function refusalMessage(db: Db, retryAfterSeconds: number): Promise<string> {
  const [row] = await db.select().from(contactInfo).where(eq(contactInfo.isActive, true)).limit(1);
  const info = row && withoutPlaceholders(row);
  const ways = [
    info?.displayEmail && info.email ? `email us at ${info.email}` : null,
    info?.displayPhone && info.phone ? `call us at ${info.phone}` : null,
  ].filter(Boolean);
  const again = `try again ${tryAgainIn(retryAfterSeconds)}`;
  const other = ways.length > 0 ? `Please ${ways.join(' or ')}, or ${again}.` : `Please ${again}.`;
  return `We are receiving an unusually high number of messages and could not accept yours right now. ${other}`;
}

/**
 * `POST /api/contact`: validate, count the message against its address's limits, then store the
 * submission and, in the same transaction, queue the staff's notification (or hold it for the
 * hourly digest when the hour's immediate notifications are used up). Suspected spam is kept with
 * `isSpam` and its reason (never dropped) and not notified one by one; the answer does not tell a
 * bot which it was.
 */
export async function submitContact(db: Db, body: unknown, meta: ContactMeta) {
  const input = parse(body);
  const now = clockNow();
  const address = limitKey(meta.ip);
  const today = await hit(db, `contact:day:${address}`, CONTACT_FLOOD.ceilingPerDay, CONTACT_FLOOD.dayMs, now);
  if (!today.allowed) {
    const retryAfter = today.retryAfterSeconds;
    throw new HttpError(429, await refusalMessage(db, retryAfter), { 'retry-after': String(retryAfter) });
  }
  const reason = spamReason(input) ?? (today.count > inboxPerDay() ? 'flood' : null);
  // Only an inquiry e-mailed now needs a transaction (its notification is queued with it); a
  // flood's messages are one insert each.
  const notifyNow = reason === null && (await takeNotificationSlot(db, now));
  // The visit a genuine inquiry came from; counting never costs an inquiry, so a failed look-up stores none.
  const visit = reason === null ? await visitOf(db, meta.ip, meta.userAgent).catch(() => null) : null;
  const store = async (conn: Db | Tx) => {
    const [row] = await conn
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
        heldForDigest: reason === null && !notifyNow,
        ipAddress: storedAddress(meta.ip),
        userAgent: meta.userAgent?.slice(0, 500) ?? null,
        messageId: newMessageId('inquiry'),
        ...visit,
      })
      .returning();
    return row!;
  };
  const row = notifyNow
    ? await db.transaction(async (tx) => {
        const stored = await store(tx);
        await queueNotification(tx, stored);
        return stored;
      })
    : await store(db);
  return { id: row.id, status: row.status, createdAt: row.createdAt };
}
