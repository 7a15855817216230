import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { timestamps, version } from './columns';
import { outboxStatus, submissionStatus, templateType } from './enums';

export const contactSubmissions = pgTable(
  'contact_submission',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    company: text('company'),
    phone: text('phone'),
    message: text('message').notNull(),
    status: submissionStatus('status').notNull().default('pending'),
    /** Suspected spam is kept and flagged, never dropped (docs/decisions/000). */
    isSpam: boolean('is_spam').notNull().default(false),
    spamReason: text('spam_reason'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    /**
     * The Message-ID of the conversation's first e-mail (the staff notification); every reply to
     * the visitor refers to it, so mail programs keep the inquiry and its replies in one thread.
     */
    messageId: text('message_id'),
    /** What the buyer says they are: government, manufacturer, consulting or other (optional). */
    buyerType: text('buyer_type'),
    /** A solicitation or RFQ number the inquiry is about (optional). */
    solicitation: text('solicitation'),
    /** When the buyer needs an answer, as YYYY-MM-DD (optional). */
    responseDue: date('response_due', { mode: 'string' }),
    /**
     * A genuine inquiry that arrived past the hour's allowance of immediate notifications: it waits
     * for the hourly digest instead of an e-mail of its own.
     */
    heldForDigest: boolean('held_for_digest').notNull().default(false),
    /**
     * The visit the inquiry came from (services/visits.ts): the first page that visitor opened
     * that day, the referring host and the campaign's UTM values. Null when it was not counted.
     */
    visitLanding: text('visit_landing'),
    visitReferrer: text('visit_referrer'),
    visitSource: text('visit_source'),
    visitMedium: text('visit_medium'),
    visitCampaign: text('visit_campaign'),
    ...timestamps,
  },
  // The inbox pages by (created_at, id) within a view; the search's trigram index over the text
  // columns is created by migration 0006 (an expression index drizzle-kit cannot describe).
  (t) => [
    index('contact_submission_created_idx').on(t.createdAt),
    index('contact_submission_view_idx').on(t.isSpam, t.createdAt.desc(), t.id.desc()),
    index('contact_submission_status_idx').on(t.isSpam, t.status, t.createdAt.desc(), t.id.desc()),
    index('contact_submission_digest_idx')
      .on(t.heldForDigest)
      .where(sql`${t.heldForDigest}`),
  ],
);
export type ContactSubmission = typeof contactSubmissions.$inferSelect;

export const contactResponses = pgTable(
  'contact_response',
  {
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => contactSubmissions.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    sentBy: text('sent_by').references(() => users.id, { onDelete: 'set null' }),
    outboxId: integer('outbox_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_response_submission_idx').on(t.submissionId)],
);
export type ContactResponse = typeof contactResponses.$inferSelect;

/** Reusable reply snippets, managed in the Templates tab and inserted into a reply at the cursor. */
export const savedReplies = pgTable('saved_reply', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  ...version,
  ...timestamps,
});
export type SavedReply = typeof savedReplies.$inferSelect;

/** Business contact information; at most one active record (partial unique index). */
export const contactInfo = pgTable(
  'contact_info',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    address: text('address').notNull(),
    businessHours: text('business_hours').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    displayEmail: boolean('display_email').notNull().default(true),
    displayPhone: boolean('display_phone').notNull().default(true),
    displayAddress: boolean('display_address').notNull().default(true),
    displayBusinessHours: boolean('display_business_hours').notNull().default(true),
    ...version,
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contact_info_one_active')
      .on(t.isActive)
      .where(sql`${t.isActive}`),
  ],
);
export type ContactInfo = typeof contactInfo.$inferSelect;

/** E-mail templates; at most one active per type (partial unique index). */
export const emailTemplates = pgTable(
  'email_template',
  {
    id: serial('id').primaryKey(),
    templateType: templateType('template_type').notNull().default('contact_response'),
    name: text('name').notNull(),
    headerBgColor: text('header_bg_color').notNull(),
    headerTextColor: text('header_text_color').notNull(),
    contentBgColor: text('content_bg_color').notNull(),
    contentTextColor: text('content_text_color').notNull(),
    accentColor: text('accent_color').notNull(),
    fontFamily: text('font_family').notNull(),
    companyLogo: text('company_logo'),
    footerText: text('footer_text').notNull(),
    signatureName: text('signature_name').notNull(),
    signatureEmail: text('signature_email').notNull(),
    signatureWebsite: text('signature_website').notNull(),
    isActive: boolean('is_active').notNull().default(false),
    ...version,
    ...timestamps,
  },
  (t) => [
    uniqueIndex('email_template_one_active_per_type')
      .on(t.templateType)
      .where(sql`${t.isActive}`),
  ],
);
export type EmailTemplate = typeof emailTemplates.$inferSelect;

/**
 * Every outgoing e-mail is written here first, in the same transaction as what caused it, then
 * delivered by a worker that claims rows with FOR UPDATE SKIP LOCKED and retries with backoff.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    status: outboxStatus('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** Set when the message is queued and sent as its Message-ID header, so a retry keeps it. */
    messageId: text('message_id'),
    /** Threading headers: the message answered, and the whole chain before it. */
    inReplyTo: text('in_reply_to'),
    references: text('references'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    submissionId: integer('submission_id').references(() => contactSubmissions.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt)],
);
export type MailOutboxRow = typeof mailOutbox.$inferSelect;
