import { setImmediate } from 'node:timers/promises';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { SubmissionStatus } from '#shared/constants.ts';
import type { ContactResponseView, SubmissionCounts, SubmissionView as View } from '#shared/responses.ts';
import { buyerTypeLabel, formatDueDate } from '#shared/buyer-facts.ts';
import { SUBMISSION_STATUS_LABELS } from '#shared/constants.ts';
import { readableDateTime, toCsvRows } from '#shared/leads.ts';
import type { SubmissionFilter, SubmissionPageQuery } from '#shared/schemas/contact-submission.ts';
import type { Db } from '../db/client';
import { contactResponses, contactSubmissions, mailOutbox, users, type ContactSubmission } from '../db/schema';
import { HttpError } from '../http';
import { recordAudit, type Actor } from './audit';
import { getBusinessTimeZone } from './business-time-zone';
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

/** A page's rows plus what the list's headers say: the cursor of the next page (null on the last) and the filtered total. */
export interface SubmissionPage {
  rows: SubmissionView[];
  next: string | null;
  /** The filtered total; for a search at most SEARCH_COUNT_CAP, with `capped` when there are more. */
  total: number;
  capped: boolean;
}

const INVALID_CURSOR = 'Invalid cursor';
/** A real UTC instant to the microsecond (a day or month Postgres would refuse never reaches it) and an int4 id. */
const cursorSchema = z.tuple([
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
    .refine((v) => {
      const t = Date.parse(v);
      return t >= 0 && new Date(t).toISOString().slice(0, 19) === v.slice(0, 19);
    }),
  z.number().int().positive().max(2_147_483_647),
]);

/**
 * The keyset cursor: the last row's created_at (as Postgres holds it, to the microsecond, which a
 * JavaScript Date would round away) and id, opaque to the client.
 */
function encodeCursor(createdAt: string, id: number): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

function decodeCursor(cursor: string): [string, number] {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new HttpError(400, INVALID_CURSOR);
  }
}

const cs = contactSubmissions;
/** created_at in UTC to the microsecond, the cursor's text form. */
const createdAtText = sql<string>`to_char(${cs.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
/**
 * Exactly the expression of the trigram index `contact_submission_search_idx` (migration 0006):
 * the planner uses the index only for this expression, so the separators stay literal SQL here.
 */
const searchText = sql`(${cs.name} || ' ' || ${cs.email} || ' ' || coalesce(${cs.company}, '') || ' ' || coalesce(${cs.phone}, '') || ' ' || coalesce(${cs.solicitation}, '') || ' ' || ${cs.message})`;

/** A search's LIKE pattern: the words as typed, with the pattern characters % _ \ taken literally. */
function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, '\\$&')}%`;
}

/** The tab's filters but the search: view, status and buyer type, each served by an index. */
function filterWhere(f: SubmissionFilter): SQL | undefined {
  return and(
    f.view === undefined ? undefined : eq(cs.isSpam, f.view === 'spam'),
    f.status === 'all' ? undefined : eq(cs.status, f.status),
    f.buyerType === undefined ? undefined : eq(cs.buyerType, f.buyerType),
  );
}

/** The search alone: the words anywhere in name, e-mail, company, phone, solicitation or message. */
function searchMatch(q: string): SQL {
  return sql`${searchText} ilike ${containsPattern(q)}`;
}

/**
 * The search as the walk tests it, row by row inside a window: an expression that is not the
 * index's, so the planner cannot take the trigram index instead of the window's range (it
 * misjudges how common a word is, and the index would gather every match of a common word in one
 * query: over a second on the embedded database at 100,000 rows, holding every visitor).
 */
function walkMatch(q: string): SQL {
  return sql`(${searchText} || '') ilike ${containsPattern(q)}`;
}

/** The filter and search as the walk and the export test them (exported for the check that no index takes it). */
export function walkedWhere(f: SubmissionFilter): SQL | undefined {
  return and(filterWhere(f), f.q ? walkMatch(f.q) : undefined);
}

/** The filter as a WHERE condition (exported for the checks that the planner can use the indexes). */
export function submissionsWhere(f: SubmissionFilter): SQL | undefined {
  return and(filterWhere(f), f.q ? searchMatch(f.q) : undefined);
}

/** Rows after the cursor, newest first: the order of the (is_spam, [status,] created_at, id) indexes. */
function afterCursor(cursor: [string, number] | undefined): SQL | undefined {
  return cursor ? sql`(${cs.createdAt}, ${cs.id}) < (${cursor[0]}::timestamptz, ${cursor[1]})` : undefined;
}

/** Rows down to `end` (included): the lower bound of a window of the walk. */
function downTo(end: [string, number] | undefined): SQL | undefined {
  return end ? sql`(${cs.createdAt}, ${cs.id}) >= (${end[0]}::timestamptz, ${end[1]})` : undefined;
}

/**
 * A search counts its matches up to this many; past it the list says "more than 1,000". Counting
 * every match of a common word reads every row (seconds at 100,000 on the embedded database),
 * and no one pages through a thousand inquiries: she narrows the search.
 */
const SEARCH_COUNT_CAP = 1000;
/**
 * Rows a search reads in one query where no index finds its words (two letters, or a word in most
 * rows): it walks the list newest first, this many rows at a time (a few milliseconds on the embedded
 * database, which answers one query at a time) and lets other requests' queries run between them.
 */
const WALK_ROWS = 250;

type Cursor = [string, number];
interface Window {
  after: Cursor | undefined;
  end: Cursor | undefined;
}

/**
 * The filtered list, newest first, as windows of WALK_ROWS rows (`after` excluded, `end` included;
 * the last window has no `end`), found on the filter's index; the event loop turns between two.
 */
async function* walkWindows(db: Db, where: SQL | undefined, from?: Cursor): AsyncGenerator<Window> {
  let after = from;
  for (;;) {
    const [last] = await db
      .select({ id: cs.id, cursor: createdAtText })
      .from(cs)
      .where(and(where, afterCursor(after)))
      .orderBy(desc(cs.createdAt), desc(cs.id))
      .offset(WALK_ROWS - 1)
      .limit(1);
    const end: Cursor | undefined = last ? [last.cursor, last.id] : undefined;
    yield { after, end };
    if (!end) return;
    after = end;
    await setImmediate();
  }
}

const inWindow = (w: Window) => and(afterCursor(w.after), downTo(w.end));

/** The rows of a page as the list reads them: the row and its cursor. */
function pageRows(db: Db, where: SQL | undefined, limit: number) {
  return db.select({ row: cs, cursor: createdAtText }).from(cs).where(where).orderBy(desc(cs.createdAt), desc(cs.id)).limit(limit);
}

/**
 * Walks the list from `from` for a search's matches: the first `rows` of them (a page and one
 * more) and, when `counting`, how many there are up to SEARCH_COUNT_CAP + 1, counted from `from`.
 */
async function walkSearch(db: Db, filter: SubmissionFilter, from: Cursor | undefined, rows: number, counting: boolean, windows = Infinity) {
  const where = filterWhere(filter);
  const matching = walkedWhere(filter);
  const cap = SEARCH_COUNT_CAP + 1;
  const found: Awaited<ReturnType<typeof pageRows>> = [];
  let n = 0;
  let walked = 0;
  for await (const w of walkWindows(db, where, from)) {
    if (found.length < rows) found.push(...(await pageRows(db, and(matching, inWindow(w)), rows - found.length)));
    if (counting) {
      const inner = db
        .select({ one: sql`1` })
        .from(cs)
        .where(and(matching, inWindow(w)))
        .limit(cap - n)
        .as('matched');
      const [row] = await db.select({ n: count() }).from(inner);
      n += row?.n ?? 0;
    }
    if ((found.length >= rows && (!counting || n >= cap)) || ++walked >= windows) break;
  }
  return { found, n };
}

/**
 * The rows a search of three letters or more matches, up to SEARCH_COUNT_CAP + 1, as their keys
 * (id and cursor, not their text): the trigram index finds the candidates and the query stops at
 * the cap, so a word in every row reads a thousand rows, not all of them. One query gives both the
 * count and, up to the cap, which rows make the page.
 */
async function matchedKeys(db: Db, filter: SubmissionFilter): Promise<Cursor[]> {
  return db.transaction(async (tx) => {
    // The planner cannot tell a word in 1 % of rows from one in all of them; the index is right for both.
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_indexscan = off`);
    const rows = await tx
      .select({ id: cs.id, cursor: createdAtText })
      .from(cs)
      .where(and(filterWhere(filter), searchMatch(filter.q)))
      .limit(SEARCH_COUNT_CAP + 1);
    return rows.map((r): Cursor => [r.cursor, r.id]);
  });
}

/** Newest first, as the list's index orders rows (the cursor text is fixed-width UTC, so it sorts as text). */
const newestFirst = (a: Cursor, b: Cursor) => (a[0] === b[0] ? b[1] - a[1] : a[0] < b[0] ? 1 : -1);
const isAfter = (key: Cursor, cursor: Cursor | undefined) => !cursor || newestFirst(cursor, key) < 0;

/**
 * A word in at least this many of the newest WALK_ROWS rows is common: walking finds its page and
 * a thousand matches in a few windows, where the trigram index would first gather every match
 * (for a word in most rows, a bitmap of most of the table, built in one piece).
 */
const COMMON_IN_WINDOW = 25;

/**
 * A search's page and its count (up to the cap). A common word, or two letters (no trigram), is
 * walked for: once for both page and count on the first page. Any other search of three letters
 * or more is counted on the trigram index; up to the cap its page comes from the index too.
 */
async function searchPage(db: Db, query: SubmissionPageQuery, cursor: Cursor | undefined) {
  const rows = query.limit + 1;
  if (query.q.length >= 3 && (await walkSearch(db, query, undefined, 0, true, 1)).n < COMMON_IN_WINDOW) {
    await setImmediate();
    const keys = await matchedKeys(db, query);
    const total = keys.length;
    await setImmediate();
    if (total > SEARCH_COUNT_CAP) return { total, rows: (await walkSearch(db, query, cursor, rows, false)).found };
    // Few: the page is picked from the keys here, and only its rows are read.
    const page = keys
      .filter((k) => isAfter(k, cursor))
      .sort(newestFirst)
      .slice(0, rows);
    const found =
      page.length === 0
        ? []
        : await pageRows(
            db,
            inArray(
              cs.id,
              page.map((k) => k[1]),
            ),
            rows,
          );
    return { total, rows: found };
  }
  if (cursor === undefined) {
    const { found, n } = await walkSearch(db, query, undefined, rows, true);
    return { total: n, rows: found };
  }
  const [{ n }, { found }] = [await walkSearch(db, query, undefined, 0, true), await walkSearch(db, query, cursor, rows, false)];
  return { total: n, rows: found };
}

/**
 * One page of the list, newest first, with the filters run in the database and the responses of
 * this page's rows only. The total counts the filtered set (every page, so a page tells how many
 * the filters match however it was reached).
 */
export async function listSubmissions(db: Db, query: SubmissionPageQuery): Promise<SubmissionPage> {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  let rows: Awaited<ReturnType<typeof pageRows>>;
  let total: number;
  if (query.q) {
    ({ total, rows } = await searchPage(db, query, cursor));
    await setImmediate();
  } else {
    const where = submissionsWhere(query);
    const [page, [counted]] = await Promise.all([
      pageRows(db, and(where, afterCursor(cursor)), query.limit + 1),
      db.select({ total: count() }).from(cs).where(where),
    ]);
    rows = page;
    total = counted?.total ?? 0;
  }
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const responses = await responsesFor(
    db,
    page.map((r) => r.row.id),
  );
  const last = page.at(-1);
  return {
    rows: page.map(({ row }) => present(row, responses.get(row.id) ?? [])),
    next: more && last ? encodeCursor(last.cursor, last.row.id) : null,
    total: query.q ? Math.min(total, SEARCH_COUNT_CAP) : total,
    capped: Boolean(query.q) && total > SEARCH_COUNT_CAP,
  };
}

/** The Contacts tab's numbers in one pass over the (is_spam, status) index: inbox per status, spam, new. */
export async function countSubmissions(db: Db): Promise<SubmissionCounts> {
  const inbox = (status: SubmissionStatus) =>
    sql<number>`count(*) filter (where not ${cs.isSpam} and ${cs.status} = ${status})`.mapWith(Number);
  const [c] = await db
    .select({
      pending: inbox('pending'),
      inProgress: inbox('in_progress'),
      completed: inbox('completed'),
      spam: sql<number>`count(*) filter (where ${cs.isSpam})`.mapWith(Number),
    })
    .from(cs);
  const { pending = 0, inProgress = 0, completed = 0, spam = 0 } = c ?? {};
  return {
    inbox: { pending, in_progress: inProgress, completed, total: pending + inProgress + completed },
    spam,
    new: pending,
  };
}

/** One submission with its responses (the Respond dialog follows it, wherever its row is in the list). */
export async function getSubmission(db: Db, id: number): Promise<SubmissionView> {
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
      actor.id,
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

const CSV_HEADER = [
  'ID',
  'Received',
  'Received (UTC, ISO 8601)',
  'Name',
  'Email',
  'Company',
  'Phone',
  'Status',
  'Spam',
  'Message',
  'Responses',
  'Last response',
  'Buyer type',
  'Solicitation',
  'Response due',
  // The visit it came from (services/visits.ts), empty when it was not counted.
  'Landing page',
  'Referrer',
  'UTM source',
  'UTM medium',
  'UTM campaign',
];
/**
 * Rows per query while exporting: memory holds one batch however many rows
 * there are. Small on purpose: the embedded database answers one query at a time, so a short one
 * keeps other requests' queries quick during an export; and a batch lives while its CSV is
 * sent, so a big one outlives V8's young-generation collections and the process grows during a
 * large export (`npm run bench -- leads` measures it).
 */
const EXPORT_BATCH = 50;

/**
 * Replies per submission and the last one's time, read in the export's own query. The outer row's
 * id is named with its table: drizzle writes a one-table query's columns unqualified, and a bare
 * "id" in the subquery would be the response's own.
 */
const exportedId = sql`${cs}.${sql.identifier(cs.id.name)}`;
const cr = contactResponses;
const replyCount = sql<number>`(select count(*) from ${cr} where ${cr.submissionId} = ${exportedId})`.mapWith(Number);
const lastReplyAt = sql<Date | null>`(select max(${cr.sentAt}) from ${cr} where ${cr.submissionId} = ${exportedId})`.mapWith(cr.sentAt);

/**
 * The tab's current filter as CSV, safe to open in a spreadsheet (formula-like cells
 * neutralised), produced batch by batch from a keyset cursor: each yielded string is the CSV of
 * one batch (the first is the header), so a caller can stream it. Written for a person: times in
 * the business's time zone ("Jan 1, 2024, 12:05 PM EST", with the received time also in ISO 8601
 * UTC for machines), statuses and buyer types as the Contacts tab words them, due dates as dates.
 */
export async function* exportSubmissionsCsv(db: Db, filter: SubmissionFilter, batch = EXPORT_BATCH): AsyncGenerator<string> {
  const readable = readableDateTime((await getBusinessTimeZone(db)).timeZone);
  const status = (value: string) =>
    Object.hasOwn(SUBMISSION_STATUS_LABELS, value) ? SUBMISSION_STATUS_LABELS[value as SubmissionStatus] : value;
  yield toCsvRows([CSV_HEADER]);
  const where = filterWhere(filter);
  const matching = walkedWhere(filter);
  // Window by window down the list, a batch at a time inside each: no query reads more than a
  // window's rows, however rare the search's words, and the event loop turns between queries.
  for await (const w of walkWindows(db, where)) {
    let after = w.after;
    for (;;) {
      const rows = await db
        .select({ row: cs, cursor: createdAtText, replies: replyCount, lastReplyAt })
        .from(cs)
        .where(and(matching, afterCursor(after), downTo(w.end)))
        .orderBy(desc(cs.createdAt), desc(cs.id))
        .limit(batch);
      if (rows.length === 0) break;
      yield toCsvRows(
        rows.map(({ row: s, replies, lastReplyAt }) => [
          s.id,
          readable(s.createdAt),
          s.createdAt.toISOString(),
          s.name,
          s.email,
          s.company,
          s.phone,
          status(s.status),
          s.isSpam ? 'yes' : 'no',
          s.message,
          replies,
          lastReplyAt ? readable(lastReplyAt) : '',
          buyerTypeLabel(s.buyerType),
          s.solicitation,
          s.responseDue ? formatDueDate(s.responseDue, { year: true }) : '',
          s.visitLanding,
          s.visitReferrer,
          s.visitSource,
          s.visitMedium,
          s.visitCampaign,
        ]),
      );
      if (rows.length < batch) break;
      const last = rows.at(-1)!;
      after = [last.cursor, last.row.id];
      await setImmediate();
    }
  }
}
