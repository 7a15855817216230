import { describe, expect, it } from 'vitest';
import { CONTACT_FIELDS, contactErrors, type ContactField } from '#shared/contact-rules.ts';
import { contactSchema } from '#shared/schemas/contact.ts';

/** The server's zod schema's first message per field, in the same shape as the form's validator. */
function zodErrors(values: unknown): Partial<Record<ContactField, string>> {
  const r = contactSchema.safeParse(values);
  const out: Partial<Record<ContactField, string>> = {};
  if (!r.success) for (const i of r.error.issues) out[i.path[0] as ContactField] ??= i.message;
  return out;
}

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
    expect(CONTACT_FIELDS).toEqual(['name', 'email', 'company', 'phone', 'message']);
  });
});
