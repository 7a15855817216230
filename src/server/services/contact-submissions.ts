import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { SubmissionStatus } from '#shared/constants.ts';
import type { ContactResponseView, SubmissionView as View } from '#shared/responses.ts';
import { filterLeads, toCsv } from '#shared/leads.ts';
import type { SubmissionFilter } from '#shared/schemas/contact-submission.ts';
import type { Db } from '../db/client';
import { contactResponses, contactSubmissions, mailOutbox, users, type ContactSubmission } from '../db/schema';
import { HttpError } from '../http';
import { recordAudit, type Actor } from './audit';
import { queueResponse } from './lead-mail';

type ResponseView = ContactResponseView<Date>;
export type SubmissionView = View<Date>;

const NOT_FOUND = 'Contact submission not found';

function present(row: ContactSubmission, responses: ResponseView[]): SubmissionView {
  const { ipAddress: _ip, userAgent: _ua, messageId: _mid, ...rest } = row;
  return { ...rest, responses };
}

async function responsesFor(db: Db, ids: number[]): Promise<Map<number, ResponseView[]>> {
  const map = new Map<number, ResponseView[]>();
  if (ids.length === 0) return map;
  const rows = await db
    .select({
      id: contactResponses.id,
      submissionId: contactResponses.submissionId,
      message: contactResponses.message,
      sentAt: contactResponses.sentAt,
      sentBy: users.username,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      deliveredAt: mailOutbox.sentAt,
      lastError: mailOutbox.lastError,
    })
    .from(contactResponses)
    .leftJoin(users, eq(users.id, contactResponses.sentBy))
    .leftJoin(mailOutbox, eq(mailOutbox.id, contactResponses.outboxId))
    .where(inArray(contactResponses.submissionId, ids))
    .orderBy(asc(contactResponses.sentAt), asc(contactResponses.id));
  for (const r of rows) {
    const list = map.get(r.submissionId) ?? [];
    list.push({
      id: r.id,
      message: r.message,
      sentAt: r.sentAt,
      sentBy: r.sentBy,
      delivery: r.status ? { status: r.status, attempts: r.attempts ?? 0, deliveredAt: r.deliveredAt, lastError: r.lastError } : null,
    });
    map.set(r.submissionId, list);
  }
  return map;
}

/** Every submission, newest first, spam included with its flag, each with its responses. */
export async function listSubmissions(db: Db): Promise<SubmissionView[]> {
  const rows = await db.select().from(contactSubmissions).orderBy(desc(contactSubmissions.createdAt), desc(contactSubmissions.id));
  const responses = await responsesFor(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => present(r, responses.get(r.id) ?? []));
}

async function getSubmission(db: Db, id: number): Promise<SubmissionView> {
  const [row] = await db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id));
  if (!row) throw new HttpError(404, NOT_FOUND);
  return present(row, (await responsesFor(db, [id])).get(id) ?? []);
}

async function updateFlags(db: Db, id: number, values: Partial<Pick<ContactSubmission, 'status' | 'isSpam' | 'spamReason'>>, actor: Actor) {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(contactSubmissions).where(eq(contactSubmissions.id, id)).for('update');
    if (!before) throw new HttpError(404, NOT_FOUND);
    const [after] = await tx.update(contactSubmissions).set(values).where(eq(contactSubmissions.id, id)).returning();
    await recordAudit(tx, actor, { action: 'update', entity: 'contact-submission', entityId: id, before, after });
  });
  return getSubmission(db, id);
}

export function setSubmissionStatus(db: Db, id: number, status: SubmissionStatus, actor: Actor) {
  return updateFlags(db, id, { status }, actor);
}

/** 'Not spam' moves an inquiry back to the inbox (the reason is kept for the record); the opposite holds it. */
export function setSubmissionSpam(db: Db, id: number, isSpam: boolean, actor: Actor) {
  return updateFlags(db, id, isSpam ? { isSpam, spamReason: 'marked by staff' } : { isSpam }, actor);
}

const SPAM_REPLY_MESSAGE = "This inquiry is marked as spam. Mark it 'Not spam' before replying.";

/**
 * Stores a reply and queues its e-mail to the visitor in one transaction (the response keeps its
 * outbox message, whose state the tab shows). A pending inquiry becomes in progress. Replies to
 * suspected spam are refused: its address may be forged, and the mail would go to a stranger.
 */
export async function respondToSubmission(db: Db, id: number, message: string, actor: Actor) {
  await db.transaction(async (tx) => {
    const [submission] = await tx.select().from(contactSubmissions).where(eq(contactSubmissions.id, id)).for('update');
    if (!submission) throw new HttpError(404, NOT_FOUND);
    if (submission.isSpam) throw new HttpError(409, SPAM_REPLY_MESSAGE);
    const earlier = await tx
      .select({ messageId: mailOutbox.messageId })
      .from(contactResponses)
      .innerJoin(mailOutbox, eq(mailOutbox.id, contactResponses.outboxId))
      .where(eq(contactResponses.submissionId, id))
      .orderBy(asc(contactResponses.sentAt), asc(contactResponses.id));
    const outboxId = await queueResponse(
      tx,
      submission,
      message,
      earlier.map((e) => e.messageId).filter((m): m is string => Boolean(m)),
    );
    const [response] = await tx.insert(contactResponses).values({ submissionId: id, message, sentBy: actor.id, outboxId }).returning();
    if (submission.status === 'pending') {
      await tx
        .update(contactSubmissions)
        .set({ status: 'in_progress', updatedAt: sql`now()` })
        .where(eq(contactSubmissions.id, id));
    }
    await recordAudit(tx, actor, {
      action: 'create',
      entity: 'contact-response',
      entityId: response!.id,
      after: { submissionId: id, message },
      subject: submission.name,
    });
  });
  return getSubmission(db, id);
}

const CSV_HEADER = ['ID', 'Received', 'Name', 'Email', 'Company', 'Phone', 'Status', 'Spam', 'Message', 'Responses', 'Last response'];

/** The tab's current view as CSV, safe to open in a spreadsheet (formula-like cells neutralised). */
export async function exportSubmissionsCsv(db: Db, filter: SubmissionFilter): Promise<string> {
  const rows = filterLeads(await listSubmissions(db), filter).map((s) => [
    s.id,
    s.createdAt,
    s.name,
    s.email,
    s.company,
    s.phone,
    s.status,
    s.isSpam ? 'yes' : 'no',
    s.message,
    s.responses.length,
    s.responses.at(-1)?.sentAt ?? '',
  ]);
  return toCsv(CSV_HEADER, rows);
}
