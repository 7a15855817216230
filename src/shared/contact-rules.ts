/**
 * The contact form's rules (SPEC 5, then three optional buyer fields of our own) as plain data,
 * plus the browser's validator over them. The
 * server's zod schema (src/shared/schemas/contact.ts) is built from the same table, and a unit
 * test checks that both give the same answers. zod itself stays out of the browser: it alone
 * would cost 7 KB gzip, and the contact page's island budget is 75 KB with React at 70.
 */

/** The same pattern zod 4 uses for `z.email()`. */
export const EMAIL_PATTERN = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export type ContactField = 'name' | 'email' | 'company' | 'phone' | 'message' | 'buyerType' | 'solicitation' | 'responseDue';

/** Who the visitor says they are ("I am…"), as stored in contact_submission.buyer_type. */
export const BUYER_TYPES = ['government', 'manufacturer', 'consulting', 'other'] as const;
export type BuyerType = (typeof BUYER_TYPES)[number];
export const BUYER_TYPE_LABELS: Record<BuyerType, string> = {
  government: 'Government buyer',
  manufacturer: 'Manufacturer',
  consulting: 'Consulting client',
  other: 'Other',
};

/**
 * A response due date may lie up to a year back (a buyer asking about a recent, re-issued or
 * extended solicitation) and up to ten years ahead (multi-year contract vehicles); anything
 * further out is a typing mistake. Counted in whole UTC days, the same in browser and server.
 */
export const RESPONSE_DUE_RANGE = { yearsBack: 1, yearsAhead: 10 } as const;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD (no 2026-02-30, no 2026-13-01). */
export function isCalendarDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** The earliest and latest response due date accepted on `now`'s UTC day, as YYYY-MM-DD. */
export function responseDueBounds(now = new Date()): { min: string; max: string } {
  const shift = (years: number) =>
    new Date(Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate())).toISOString().slice(0, 10);
  return { min: shift(-RESPONSE_DUE_RANGE.yearsBack), max: shift(RESPONSE_DUE_RANGE.yearsAhead) };
}

/** True when a calendar date lies within RESPONSE_DUE_RANGE of today (YYYY-MM-DD compares as text). */
export function isDueDateInRange(value: string, now = new Date()): boolean {
  const { min, max } = responseDueBounds(now);
  return value >= min && value <= max;
}

interface Rule {
  required: boolean;
  min?: number;
  max: number;
  /** Shown when a required value is missing or shorter than `min` (or, for email, malformed). */
  invalid?: string;
  tooLong: string;
  /** Shown for a value that is not text (only an API client can send one). */
  notText: string;
  pattern?: RegExp;
  /** The only values accepted (a choice); anything else reads as `invalid`. */
  options?: readonly string[];
  /** A calendar date (YYYY-MM-DD): not one reads as `invalid`, one outside RESPONSE_DUE_RANGE as `outOfRange`. */
  date?: { outOfRange: string };
}

/** Maximum lengths are server hardening (not in the spec). */
export const CONTACT_RULES: Record<ContactField, Rule> = {
  name: {
    required: true,
    min: 2,
    max: 200,
    invalid: 'Name must be at least 2 characters',
    tooLong: 'Name must be at most 200 characters',
    notText: 'Name must be text',
  },
  email: {
    required: true,
    max: 254,
    pattern: EMAIL_PATTERN,
    invalid: 'Please enter a valid email address',
    tooLong: 'Email must be at most 254 characters',
    notText: 'Please enter a valid email address',
  },
  company: { required: false, max: 200, tooLong: 'Company must be at most 200 characters', notText: 'Company must be text' },
  phone: { required: false, max: 50, tooLong: 'Phone number must be at most 50 characters', notText: 'Phone number must be text' },
  message: {
    required: true,
    min: 10,
    max: 5000,
    invalid: 'Message must be at least 10 characters',
    tooLong: 'Message must be at most 5000 characters',
    notText: 'Message must be text',
  },
  buyerType: {
    required: false,
    max: 20,
    options: BUYER_TYPES,
    invalid: 'Please choose one of the listed options',
    tooLong: 'Please choose one of the listed options',
    notText: 'Please choose one of the listed options',
  },
  solicitation: {
    required: false,
    max: 100,
    tooLong: 'Solicitation or RFQ number must be at most 100 characters',
    notText: 'Solicitation or RFQ number must be text',
  },
  responseDue: {
    required: false,
    max: 10,
    date: { outOfRange: 'Response due date must be within the past year or the next ten years' },
    invalid: 'Please enter a valid response due date',
    tooLong: 'Please enter a valid response due date',
    notText: 'Please enter a valid response due date',
  },
};
export const CONTACT_FIELDS = Object.keys(CONTACT_RULES) as ContactField[];

/** Below this many milliseconds between the form appearing and its submission, a person did not type it. */
export const CONTACT_MIN_FILL_MS = 2500;

/** One field's message, or undefined when valid. Values are trimmed first, as the server does. */
function contactFieldError(field: ContactField, raw: unknown): string | undefined {
  const rule = CONTACT_RULES[field];
  if (raw === undefined || raw === null) return rule.required ? rule.invalid : undefined;
  if (typeof raw !== 'string') return rule.notText;
  const value = raw.trim();
  if (value.length > rule.max) return rule.tooLong;
  if (!rule.required && value === '') return undefined;
  if (rule.min !== undefined && value.length < rule.min) return rule.invalid;
  if (rule.pattern && !rule.pattern.test(value)) return rule.invalid;
  if (rule.options && !rule.options.includes(value)) return rule.invalid;
  if (rule.date && !isCalendarDate(value)) return rule.invalid;
  if (rule.date && !isDueDateInRange(value)) return rule.date.outOfRange;
  return undefined;
}

/** Field → message for every invalid field. */
export function contactErrors(values: Partial<Record<ContactField, unknown>>): Partial<Record<ContactField, string>> {
  const errors: Partial<Record<ContactField, string>> = {};
  for (const field of CONTACT_FIELDS) {
    const message = contactFieldError(field, values[field]);
    if (message) errors[field] = message;
  }
  return errors;
}
