import { describe, expect, it } from 'vitest';
import { BUYER_TYPES, CONTACT_FIELDS, contactErrors, isCalendarDate, isDueDateInRange, type ContactField } from '#shared/contact-rules.ts';
import { contactSchema } from '#shared/schemas/contact.ts';

/** The server's zod schema's first message per field, in the same shape as the form's validator. */
function zodErrors(values: unknown): Partial<Record<ContactField, string>> {
  const r = contactSchema.safeParse(values);
  const out: Partial<Record<ContactField, string>> = {};
  if (!r.success) for (const i of r.error.issues) out[i.path[0] as ContactField] ??= i.message;
  return out;
}

/** The first and last day accepted today: 1 January of last year, 31 December ten years ahead (UTC). */
const year = new Date().getUTCFullYear();
const due = { min: `${year - 1}-01-01`, max: `${year + 10}-12-31` };

const base = { name: 'Jane Buyer', email: 'jane@agency.gov', company: '', phone: '', message: 'We need forty laptops.' };
const cases: Record<string, unknown>[] = [
  base,
  {},
  { ...base, name: 'J' },
  { ...base, name: '  J  ' },
  { ...base, name: 'Jo' },
  { ...base, name: 'x'.repeat(200) },
  { ...base, name: 'x'.repeat(201) },
  { ...base, email: 'jane' },
  { ...base, email: 'jane@agency' },
  { ...base, email: ' jane@agency.gov ' },
  { ...base, email: 'jane..doe@agency.gov' },
  { ...base, email: '.jane@agency.gov' },
  { ...base, email: "o'brien+quotes@sub.agency.gov" },
  { ...base, company: 'c'.repeat(200) },
  { ...base, company: 'c'.repeat(201) },
  { ...base, company: null },
  { ...base, phone: '   ' },
  { ...base, phone: '5'.repeat(51) },
  { ...base, message: '123456789' },
  { ...base, message: '1234567890' },
  { ...base, message: '   123456789   ' },
  { ...base, message: 'm'.repeat(5001) },
  { ...base, message: 42 },
  { name: 'J', email: 'bad', message: 'short', phone: 'p'.repeat(60) },
  // The three optional buyer fields.
  ...BUYER_TYPES.map((buyerType) => ({ ...base, buyerType })),
  { ...base, buyerType: '' },
  { ...base, buyerType: null },
  { ...base, buyerType: ' government ' },
  { ...base, buyerType: 'Government' },
  { ...base, buyerType: 'agency' },
  { ...base, buyerType: 'x'.repeat(21) },
  { ...base, buyerType: 1 },
  { ...base, solicitation: '36C10X26Q0123' },
  { ...base, solicitation: 's'.repeat(100) },
  { ...base, solicitation: 's'.repeat(101) },
  { ...base, solicitation: '   ' },
  { ...base, solicitation: ['36C10X26Q0123'] },
  { ...base, responseDue: '' },
  { ...base, responseDue: undefined },
  { ...base, responseDue: due.min },
  { ...base, responseDue: due.max },
  { ...base, responseDue: `${year - 2}-12-31` },
  { ...base, responseDue: `${year + 11}-01-01` },
  { ...base, responseDue: `${year}-06-15` },
  { ...base, responseDue: '2026-02-30' },
  { ...base, responseDue: '2026-13-01' },
  { ...base, responseDue: '2026-1-5' },
  { ...base, responseDue: '12/03/2026' },
  { ...base, responseDue: `${year}-06-15T00:00` },
  { ...base, responseDue: `${year}-6-15` },
  { ...base, responseDue: `+0${year}-06-15` },
  { ...base, responseDue: 20261203 },
  { name: 'J', email: 'bad', message: 'short', buyerType: 'agency', solicitation: 's'.repeat(101), responseDue: '9999-12-31' },
];

describe('[FORMAT][CONTACT] the form validator and the server schema agree', () => {
  it.each(cases.map((c, i) => [i, c] as const))('case %i', (_i, values) => {
    expect(contactErrors(values)).toEqual(zodErrors(values));
  });

  it('the spec messages, on submit', () => {
    expect(contactErrors({ name: 'J', email: 'x', message: 'short' })).toEqual({
      name: 'Name must be at least 2 characters',
      email: 'Please enter a valid email address',
      message: 'Message must be at least 10 characters',
    });
    expect(CONTACT_FIELDS).toEqual(['name', 'email', 'company', 'phone', 'message', 'buyerType', 'solicitation', 'responseDue']);
  });

  it('the buyer fields are optional, and a bad value of each gets its own message', () => {
    expect(contactErrors(base)).toEqual({});
    expect(contactErrors({ ...base, buyerType: 'agency', solicitation: 's'.repeat(101), responseDue: '2026-02-30' })).toEqual({
      buyerType: 'Please choose one of the listed options',
      solicitation: 'Solicitation or RFQ number must be at most 100 characters',
      responseDue: 'Please enter a valid response due date',
    });
    expect(contactErrors({ ...base, responseDue: `${year + 11}-01-01` })).toEqual({
      responseDue: 'Please enter a due date from last year to ten years ahead',
    });
  });

  it('the server keeps a given value trimmed and an absent one as empty', () => {
    const parsed = contactSchema.parse({ ...base, buyerType: 'manufacturer', solicitation: '  RFQ-7 ', responseDue: due.max });
    expect(parsed).toMatchObject({ buyerType: 'manufacturer', solicitation: 'RFQ-7', responseDue: due.max });
    expect(contactSchema.parse({ ...base, solicitation: null })).toMatchObject({ buyerType: '', solicitation: '', responseDue: '' });
  });

  it('a response due date is a real calendar day, leap years included', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('2100-02-29')).toBe(false);
    expect(isCalendarDate('2026-04-31')).toBe(false);
    expect(isCalendarDate('2026-12-31')).toBe(true);
    expect(isCalendarDate('2026-00-10')).toBe(false);
  });

  it('the range runs from last year to ten years ahead, by the UTC year', () => {
    const now = new Date('2026-12-31T23:30:00-05:00'); // already 2027 in UTC
    expect(isDueDateInRange('2026-01-01', now)).toBe(true);
    expect(isDueDateInRange('2025-12-31', now)).toBe(false);
    expect(isDueDateInRange('2037-12-31', now)).toBe(true);
    expect(isDueDateInRange('2038-01-01', now)).toBe(false);
  });
});
