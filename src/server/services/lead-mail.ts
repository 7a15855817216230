import { and, asc, eq } from 'drizzle-orm';
import { TEMPLATE_TYPES, type TemplateType } from '#shared/constants.ts';
import { EMAIL_PATTERN } from '#shared/contact-rules.ts';
import {
  renderNotification,
  renderResponse,
  safeHttpUrl,
  type RenderContext,
  type ReplyContext,
  type ReplySetup,
  type TemplateLook,
} from '#shared/email/render.ts';
import { DEFAULT_TEMPLATE } from '#shared/fallbacks.ts';
import { NO_RECIPIENT_WARNING, type LeadDelivery } from '#shared/lead-delivery.ts';
import { STARTING_COMPANY } from '#shared/company.ts';
import { isPlaceholderEmail, isPlaceholderPhone } from '#shared/placeholders.ts';
import type { Db, Tx } from '../db/client';
import { companyProfile, contactInfo, emailTemplates, users, type ContactSubmission } from '../db/schema';
import { env } from '../env';
import { log } from '../log';
import { enqueueMail, newMessageId } from '../mail/outbox';
import { getPublicDocument } from '../content/public-content';
import { getSignature } from './signature';

/*
 * The e-mails of a lead's life: the staff's notification of a new inquiry and each reply to the
 * visitor. Both are rendered from the active template of their type and queued in the caller's
 * transaction, so a message exists exactly when the change that caused it is stored.
 */

type Conn = Db | Tx;

/** The business's full name as the company profile gives it (e-mails sign with it). */
export async function businessName(conn: Conn): Promise<string> {
  const [row] = await conn.select({ legalName: companyProfile.legalName }).from(companyProfile).limit(1);
  return row?.legalName ?? STARTING_COMPANY.legalName;
}

async function renderContext(conn: Conn): Promise<RenderContext> {
  return { siteName: await businessName(conn), siteUrl: env().SITE_URL };
}

/** The active template of a type, or the built-in default look when none is active. */
export async function activeTemplate(db: Conn, type: TemplateType): Promise<TemplateLook> {
  if (!(TEMPLATE_TYPES as readonly string[]).includes(type)) throw new Error(`unknown template type ${type}`);
  const [row] = await db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.templateType, type), eq(emailTemplates.isActive, true)))
    .limit(1);
  return row ?? { ...DEFAULT_TEMPLATE, signatureWebsite: env().SITE_URL };
}

const isEmail = (value: string) => value.length <= 254 && EMAIL_PATTERN.test(value);

/**
 * CONTACT_NOTIFY_TO as a list of addresses (comma-separated). Malformed entries and placeholders
 * (example.com and the other reserved domains) are skipped with a warning: mail to them reaches no one.
 */
function configuredNotifyTo(): string[] {
  const raw = env().CONTACT_NOTIFY_TO ?? '';
  const list = raw
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const valid = list.filter(isEmail);
  const real = valid.filter((a) => !isPlaceholderEmail(a));
  // Once per value: /readyz and the back office ask often.
  if (warnedNotifyTo !== raw) {
    warnedNotifyTo = raw;
    if (valid.length !== list.length) log.warn('CONTACT_NOTIFY_TO has entries that are not e-mail addresses; they are skipped');
    if (real.length !== valid.length)
      log.warn('CONTACT_NOTIFY_TO has placeholder addresses (example.com, .test, localhost…); they are skipped');
  }
  return [...new Set(real)];
}
let warnedNotifyTo: string | undefined;

/** Forgets which CONTACT_NOTIFY_TO was warned about (bundle-api.ts `startAfresh`). */
export function forgetNotifyToWarning(): void {
  warnedNotifyTo = undefined;
}

/** The active contact record's e-mail when it is a real address (not a placeholder), else null. */
async function activeContactEmail(db: Conn): Promise<string | null> {
  const [row] = await db.select({ email: contactInfo.email }).from(contactInfo).where(eq(contactInfo.isActive, true)).limit(1);
  return row && isEmail(row.email) && !isPlaceholderEmail(row.email) ? row.email : null;
}

/**
 * Who hears of a new inquiry, and why: CONTACT_NOTIFY_TO when it names a real address, else the
 * active contact e-mail when it is not a placeholder, else every administrator whose e-mail is not
 * one. `none` when nobody real is left: the inquiry is still stored, and the back office, /readyz
 * and the start log say so. The mail code, those three and the test inquiry all ask this.
 */
export async function leadRecipients(db: Conn): Promise<LeadDelivery> {
  const configured = configuredNotifyTo();
  if (configured.length > 0) return { recipients: configured, source: 'configured' };
  const business = await activeContactEmail(db);
  if (business) return { recipients: [business], source: 'contact' };
  const admins = await db.select({ email: users.email }).from(users).where(eq(users.role, 'admin')).orderBy(asc(users.createdAt));
  const real = [...new Set(admins.map((a) => a.email).filter((a) => isEmail(a) && !isPlaceholderEmail(a)))];
  return real.length > 0 ? { recipients: real, source: 'administrators' } : { recipients: [], source: 'none' };
}

/** The addresses of `leadRecipients`. */
export async function notificationRecipients(db: Conn): Promise<string[]> {
  return (await leadRecipients(db)).recipients;
}

/** The business mailbox a visitor's answer goes back to: the real active contact e-mail, else the first recipient of inquiries. */
async function businessMailbox(db: Conn): Promise<string | null> {
  return (await activeContactEmail(db)) ?? (await leadRecipients(db)).recipients[0] ?? null;
}

/**
 * Queues the staff's notification of a stored inquiry, one message per recipient, Reply-To the
 * visitor and with the inquiry's Message-ID (replies to the visitor refer to it).
 */
export async function queueNotification(tx: Tx, submission: ContactSubmission): Promise<number[]> {
  const recipients = await notificationRecipients(tx);
  if (recipients.length === 0) {
    log.warn(NO_RECIPIENT_WARNING, { submissionId: submission.id });
    return [];
  }
  const look = await activeTemplate(tx, 'contact_notification');
  const ctx = await renderContext(tx);
  const mail = renderNotification(look, submission, { ...ctx, adminUrl: new URL('/admin#contacts', ctx.siteUrl).toString() });
  const ids: number[] = [];
  for (const [i, to] of recipients.entries()) {
    ids.push(
      await enqueueMail(tx, {
        kind: 'contact.notification',
        to,
        ...mail,
        replyTo: submission.email,
        submissionId: submission.id,
        // The first copy carries the inquiry's own Message-ID; other copies refer to it.
        messageId: i === 0 && submission.messageId ? submission.messageId : newMessageId('inquiry'),
      }),
    );
  }
  return ids;
}

/**
 * Queues a reply to the visitor, threaded under the inquiry: In-Reply-To the latest earlier
 * message of the conversation, References the whole chain, Reply-To the business mailbox.
 */
export async function queueResponse(
  tx: Tx,
  submission: ContactSubmission,
  reply: string,
  earlierMessageIds: string[],
  senderId: string,
): Promise<number> {
  const look = await activeTemplate(tx, 'contact_response');
  const mail = renderResponse(look, submission, reply, await replyContext(tx, senderId));
  const chain = [submission.messageId, ...earlierMessageIds].filter((v): v is string => Boolean(v));
  return enqueueMail(tx, {
    kind: 'contact.response',
    to: submission.email,
    ...mail,
    replyTo: (await businessMailbox(tx)) ?? undefined,
    submissionId: submission.id,
    messageId: newMessageId('reply'),
    inReplyTo: chain.at(-1),
    references: chain,
  });
}

/** A real contact detail, or null: empty values and placeholders are never signed with. */
const real = (value: string | null | undefined, isPlaceholder: (v: string) => boolean) =>
  value && value.trim() && !isPlaceholder(value) ? value.trim() : null;

/**
 * What a reply signs with: the administrator's own signature (`senderId`: the one who sends it,
 * or the one signed in for a preview), when it has a name; the company profile's legal name; the active contact information's
 * e-mail, else the profile's procurement e-mail; the administrator's own phone, else the active contact phone; the site's address.
 * Placeholders (example.com, 555-01xx) are left out, so a reply never shows them.
 */
export async function replyContext(conn: Conn, senderId: string | null): Promise<ReplyContext> {
  const [profile] = await conn
    .select({ legalName: companyProfile.legalName, procurementEmail: companyProfile.procurementEmail })
    .from(companyProfile)
    .limit(1);
  const [contact] = await conn
    .select({ email: contactInfo.email, phone: contactInfo.phone })
    .from(contactInfo)
    .where(eq(contactInfo.isActive, true))
    .limit(1);
  const ctx = await renderContext(conn);
  const own = senderId ? await getSignature(conn, senderId) : null;
  return {
    ...ctx,
    sender: {
      person: own?.name ? { name: own.name, title: own.title } : null,
      name: profile?.legalName ?? STARTING_COMPANY.legalName,
      email: real(contact?.email, isPlaceholderEmail) ?? real(profile?.procurementEmail, isPlaceholderEmail),
      phone: (own?.name ? real(own.phone, isPlaceholderPhone) : null) ?? real(contact?.phone, isPlaceholderPhone),
      website: ctx.siteUrl,
    },
  };
}

/** The reply setup for the signed-in administrator `userId` (their signature signs the preview). */
export async function replySetup(db: Db, userId: string): Promise<ReplySetup> {
  const context = await replyContext(db, userId);
  const doc = await getPublicDocument(db, 'capability');
  const url = doc ? safeHttpUrl(doc.filePath, context.siteUrl) : null;
  const t = await activeTemplate(db, 'contact_response');
  // The look only: the template row's id, name and dates are not the dialog's business.
  const look: TemplateLook = {
    headerBgColor: t.headerBgColor,
    headerTextColor: t.headerTextColor,
    contentBgColor: t.contentBgColor,
    contentTextColor: t.contentTextColor,
    accentColor: t.accentColor,
    fontFamily: t.fontFamily,
    companyLogo: t.companyLogo,
    footerText: t.footerText,
    signatureName: t.signatureName,
    signatureEmail: t.signatureEmail,
    signatureWebsite: t.signatureWebsite,
  };
  return { context, look, capabilityStatement: doc && url ? { title: doc.title, url } : null };
}
