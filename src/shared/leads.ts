/**
 * Pure rules of the Contacts tab, shared by the tab and the server (the CSV export lists exactly
 * what the tab shows).
 */
import type { SubmissionFilter } from './schemas/contact-submission';

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

/** Inbox or Spam view, status, then a case-insensitive search over name, e-mail, company, phone and message. */
export function filterLeads<T extends LeadLike>(list: readonly T[], f: SubmissionFilter): T[] {
  const q = f.q.trim().toLowerCase();
  return list.filter(
    (s) =>
      s.isSpam === (f.view === 'spam') &&
      (f.status === 'all' || s.status === f.status) &&
      (!q || [s.name, s.email, s.company ?? '', s.phone ?? '', s.message].some((v) => v.toLowerCase().includes(q))),
  );
}

/** New inquiries: not spam, still pending. */
export function countNew(list: readonly LeadLike[]): number {
  return list.filter((s) => !s.isSpam && s.status === 'pending').length;
}

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
 * (starting with =, +, -, @, a tab or a carriage return) prefixed with an apostrophe.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
