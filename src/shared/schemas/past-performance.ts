import { z } from 'zod';
import { displayOrderField, optionalText, patchSchema, requiredText } from './fields';

/** The longest summary of a past-performance entry (a card's worth of text). */
const PAST_PERFORMANCE_SUMMARY_MAX = 600;
/** The largest contract value the owner may enter, in whole dollars. */
const VALUE_MAX = 1_000_000_000_000;

const MONTH = /^\d{4}-(?:0[1-9]|1[0-2])$/;
const MONTH_MESSAGE = 'must be a month written YYYY-MM, e.g. 2023-03';
export const END_BEFORE_START = 'End month cannot be before the start month';
const VALUE_MESSAGE = 'Value must be a whole dollar amount, e.g. 1,250,000';
const NAICS_MESSAGE = 'NAICS code must be 6 digits';

const startMonth = z
  .string({ error: 'Start month is required' })
  .trim()
  .min(1, 'Start month is required')
  .regex(MONTH, `Start month ${MONTH_MESSAGE}`);

/** Empty or absent: the work is ongoing. */
const endMonth = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || MONTH.test(v), `End month ${MONTH_MESSAGE}`);

/** Whole dollars: a number, or text such as '$1,250,000' (the form's); empty clears it. */
const dollars = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const plain = v.replace(/[$,\s]/g, '');
    if (plain === '') return null;
    return /^\d{1,13}$/.test(plain) ? Number(plain) : v;
  },
  z
    .number({ error: VALUE_MESSAGE })
    .int(VALUE_MESSAGE)
    .min(0, VALUE_MESSAGE)
    .max(VALUE_MAX, 'Value must be at most $1,000,000,000,000')
    .nullish()
    .transform((v) => v ?? null),
);

const naicsCode = z
  .string({ error: NAICS_MESSAGE })
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || /^\d{6}$/.test(v), NAICS_MESSAGE);

/**
 * One past-performance entry (Company tab; GET/POST /api/admin/past-performance, PATCH/DELETE
 * /api/admin/past-performance/{id}; visitors read the active ones on /services/federal, /about and
 * the home page). Months are YYYY-MM; no end month means the work is ongoing.
 */
export const pastPerformanceFields = z.object({
  customer: requiredText('Customer is required', 200),
  title: requiredText('Title is required', 200),
  summary: requiredText('Summary is required', PAST_PERFORMANCE_SUMMARY_MAX),
  periodStart: startMonth,
  periodEnd: endMonth,
  /** E.g. 'Firm-fixed-price purchase order', 'BPA call'. */
  contractType: optionalText(120),
  value: dollars,
  /** The value is shown to visitors only when the owner says so. */
  showValue: z.boolean().default(false),
  naicsCode,
  isActive: z.boolean().default(true),
  displayOrder: displayOrderField.default(0),
});

/** Whether a period ends before it starts (both YYYY-MM, which compare as text). */
export function endsBeforeStart(start: string | null | undefined, end: string | null | undefined): boolean {
  return Boolean(start && end && end < start);
}

/** The form's and POST's schema: every field, and an end month not before the start. */
export const pastPerformanceSchema = pastPerformanceFields.refine((v) => !endsBeforeStart(v.periodStart, v.periodEnd), {
  message: END_BEFORE_START,
  path: ['periodEnd'],
});
export type PastPerformanceValues = z.output<typeof pastPerformanceSchema>;

/** PATCH: any subset with the version it was based on; the period is checked against the stored one. */
export const pastPerformancePatchSchema = patchSchema(pastPerformanceFields);
