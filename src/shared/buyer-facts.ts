import { BUYER_TYPE_LABELS, type BuyerType } from './contact-rules';

/*
 * What a buyer told us about their request (the contact form's optional fields), worded for the
 * staff: the inbox card and the notification e-mail say it the same way.
 */

export interface BuyerFacts {
  buyerType?: string | null;
  solicitation?: string | null;
  /** YYYY-MM-DD. */
  responseDue?: string | null;
}

/** "Government buyer" for `government`; a value the form no longer offers is shown as stored. */
export function buyerTypeLabel(value: string | null | undefined): string | null {
  if (!value) return null;
  return Object.hasOwn(BUYER_TYPE_LABELS, value) ? BUYER_TYPE_LABELS[value as BuyerType] : value;
}

/** A calendar day (YYYY-MM-DD) as "Dec 3", with the year and weekday when asked ("Thu, Dec 3, 2026"). */
export function formatDueDate(day: string, opts: { year?: boolean; weekday?: boolean } = {}): string {
  // The day is a date without a time: read and written in UTC so no time zone moves it.
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString('en-US', {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    ...(opts.year ? { year: 'numeric' } : {}),
    ...(opts.weekday ? { weekday: 'short' } : {}),
  });
}

/** "RFQ 36C10X26Q0123", unless the number already says what it is ("RFP 12-34", "Solicitation W912…"). */
export function solicitationLabel(value: string): string {
  return /^(rfq|rfp|rfi|rfo|ifb|solicitation)\b/i.test(value) ? value : `RFQ ${value}`;
}
