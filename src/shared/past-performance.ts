import type { PastPerformanceValues } from './schemas/past-performance';

/* How a past-performance entry reads on the public pages (and, later, in generated documents). */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '2023-03' → 'Mar 2023'. */
function formatMonth(month: string): string {
  const [year, m] = month.split('-');
  return `${MONTHS[Number(m) - 1] ?? ''} ${year ?? ''}`.trim();
}

/** 'Mar 2023 – present', 'Mar 2023 – Nov 2024', or one month alone. */
export function formatPeriod(start: string, end: string | null): string {
  if (end === start) return formatMonth(start);
  return `${formatMonth(start)} – ${end ? formatMonth(end) : 'present'}`;
}

/** 1250000 → '$1,250,000'. */
export function formatDollars(value: number): string {
  return `$${value.toLocaleString('en-US')}`;
}

type Dated = Pick<PastPerformanceValues, 'periodStart' | 'periodEnd'>;

/**
 * Newest first: ongoing work before finished work, then by end month, then by start month (both
 * newest first). Stable for equal periods.
 */
export function byNewestPeriod(a: Dated, b: Dated): number {
  if ((a.periodEnd === null) !== (b.periodEnd === null)) return a.periodEnd === null ? -1 : 1;
  const end = (b.periodEnd ?? '').localeCompare(a.periodEnd ?? '');
  return end !== 0 ? end : b.periodStart.localeCompare(a.periodStart);
}
