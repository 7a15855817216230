import type { Db } from '../db/client';
import { contactSubmissions } from '../db/schema';
import { HttpError } from '../http';
import { CONTACT_MIN_FILL_MS } from '#shared/contact-rules.ts';
import { contactRequestSchema } from '#shared/schemas/contact.ts';
import { enforce } from './rate-limit';

/** More than this many submissions per client address per window get 429 (not in the spec). */
export const CONTACT_RATE_LIMIT = { limit: 5, windowMs: 10 * 60 * 1000 } as const;
export const CONTACT_RATE_MESSAGE =
  'You have sent several messages in a short time. Please wait a few minutes and try again, or email us directly.';

export interface ContactMeta {
  ip: string;
  userAgent: string | null;
}

/**
 * Why a submission looks automated, or null. The honeypot is a field people never see; the
 * fill time is how long the form was open. A request without a fill time (an API client) gets
 * the benefit of the doubt.
 */
export function spamReason(body: { website?: string | null; elapsedMs?: number | null }): string | null {
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

/**
 * `POST /api/contact`: validate, rate-limit per address, then store the submission as `pending`
 * before anything else happens (notifications come after, from the stored row). Suspected spam
 * is kept with `isSpam` (docs/decisions/000), never dropped, and the answer does not tell a bot so.
 */
export async function submitContact(db: Db, body: unknown, meta: ContactMeta) {
  const input = parse(body);
  await enforce(db, `contact:${meta.ip}`, CONTACT_RATE_LIMIT.limit, CONTACT_RATE_LIMIT.windowMs, CONTACT_RATE_MESSAGE);
  const reason = spamReason(input);
  const [row] = await db
    .insert(contactSubmissions)
    .values({
      name: input.name,
      email: input.email,
      company: input.company || null,
      phone: input.phone || null,
      message: input.message,
      status: 'pending',
      isSpam: reason !== null,
      spamReason: reason,
      ipAddress: meta.ip,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
    })
    .returning({ id: contactSubmissions.id, status: contactSubmissions.status, createdAt: contactSubmissions.createdAt });
  return row!;
}
