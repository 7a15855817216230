/**
 * Pure rules of the Contacts tab, shared by the tab and the server. Filtering and counting run in
 * the database (src/server/services/contact-submissions.ts), never over a list in the browser.
 */

export interface LeadLike {
  name: string;
  email: string;
  company: string | null;
  phone: string | null;
  message: string;
  status: string;
  isSpam: boolean;
  createdAt: string | Date;
  responses: readonly unknown[];
}

/** The spec's promise: a reply within 24 hours on business days. */
const PROMISED_REPLY_HOURS = 24;

/**
 * When the promised reply is due: 24 hours after arrival, counting only Monday to Friday (hours
 * that fall on a Saturday or Sunday, local time, do not count).
 */
export function replyDueAt(createdAt: Date | string): Date {
  const t = new Date(createdAt);
  let remaining = PROMISED_REPLY_HOURS * 60;
  // Minute steps on whole weekend days would be slow; step by the hour and finish with minutes.
  while (remaining > 0) {
    const day = t.getDay();
    const step = Math.min(60, remaining);
    if (day !== 0 && day !== 6) remaining -= step;
    t.setTime(t.getTime() + step * 60_000);
  }
  return t;
}

/** Past the promised reply time with no reply sent, and neither completed nor spam. */
export function isOverdue(s: LeadLike, now: Date = new Date()): boolean {
  return !s.isSpam && s.status !== 'completed' && s.responses.length === 0 && replyDueAt(s.createdAt).getTime() < now.getTime();
}

/**
 * One CSV cell: quoted, inner quotes doubled, and a value a spreadsheet would run as a formula
 * (starting with =, +, -, @, a tab or a carriage return, or a fullwidth or small form of one of
 * those signs, such as ＝, which some spreadsheets read as the ASCII sign) prefixed with an apostrophe.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
  // NFKC folds the compatibility forms (＝ U+FF1D, ﹦ U+FE66, ＋, －, ＠…) onto the ASCII signs.
  if (/^[=+\-@\t\r]/.test(text.slice(0, 1).normalize('NFKC'))) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * A moment as a person reads it in the business's time zone: "Jan 1, 2024, 12:05 PM EST". One
 * formatter per export (building one per cell would be slow). ICU puts a narrow no-break space
 * before AM/PM; a plain one reads the same and survives every spreadsheet's import.
 */
export function readableDateTime(timeZone: string): (value: Date) => string {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  return (value) => format.format(value).replace(/\u202f/g, ' ');
}

/** CSV lines, each ended by CRLF (so batches of them can be concatenated as they stream). */
export function toCsvRows(rows: readonly (readonly unknown[])[]): string {
  return rows.map((r) => `${r.map(csvCell).join(',')}\r\n`).join('');
}
