/**
 * The contact form's rules (SPEC 5, then three optional buyer fields of our own) as plain data,
 * plus the browser's validator over them. The
 * server's zod schema (src/shared/schemas/contact.ts) is built from the same table, and a unit
 * test checks that both give the same answers. zod itself stays out of the browser: React alone
 * takes most of the contact page's island budget (tests/e2e/site-budgets.spec.ts), and zod would
 * not fit in what is left.
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

/** True for a real calendar day written YYYY-MM-DD: 2026-02-30 would roll over to 2 March, 2026-13-01 is no date. */
export const isCalendarDate = (value: string): boolean =>
  /^\d{4}-\d\d-\d\d$/.test(value) && new Date(`${value}T00:00Z`).getUTCDate() === Number(value.slice(8));

/**
 * A response due date's year may be last year (a buyer asking about a recent, re-issued or
 * extended solicitation), this year, or up to ten years ahead (multi-year contract vehicles);
 * anything further out is a typing mistake. The current year is the UTC one, in browser and server alike.
 */
export function isDueDateInRange(value: string, now = new Date()): boolean {
  const years = Number(value.slice(0, 4)) - now.getUTCFullYear();
  return years >= -1 && years <= 10;
}

interface Rule {
  /** Optional unless set. */
  required?: boolean;
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
  /**
   * Set for a date field (YYYY-MM-DD): shown for a calendar date outside RESPONSE_DUE_YEARS; a
   * value that is no calendar date reads as `invalid`.
   */
  outOfRange?: string;
}

const CHOOSE = 'Please choose one of the listed options';
const BAD_DATE = 'Please enter a valid response due date';

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
  company: { max: 200, tooLong: 'Company must be at most 200 characters', notText: 'Company must be text' },
  phone: { max: 50, tooLong: 'Phone number must be at most 50 characters', notText: 'Phone number must be text' },
  message: {
    required: true,
    min: 10,
    max: 5000,
    invalid: 'Message must be at least 10 characters',
    tooLong: 'Message must be at most 5000 characters',
    notText: 'Message must be text',
  },
  buyerType: {
    max: 20,
    options: BUYER_TYPES,
    invalid: CHOOSE,
    tooLong: CHOOSE,
    notText: CHOOSE,
  },
  solicitation: {
    max: 100,
    tooLong: 'Solicitation or RFQ number must be at most 100 characters',
    notText: 'Solicitation or RFQ number must be text',
  },
  responseDue: {
    max: 10,
    outOfRange: 'Please enter a due date from last year to ten years ahead',
    invalid: BAD_DATE,
    tooLong: BAD_DATE,
    notText: BAD_DATE,
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
  if (rule.outOfRange && !isCalendarDate(value)) return rule.invalid;
  if (rule.outOfRange && !isDueDateInRange(value)) return rule.outOfRange;
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
