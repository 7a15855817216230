import { z } from 'zod';
import { CONTACT_RULES, isCalendarDate, isDueDateInRange, type ContactField } from '../contact-rules';
import { withoutHiddenCharacters } from './fields';

/**
 * A field of the table in contact-rules.ts as zod: hidden characters dropped (fields.ts), trimmed,
 * then length, pattern, choice and date checks.
 */
function fieldSchema(field: ContactField) {
  const rule = CONTACT_RULES[field];
  // A missing required field reads as the spec's message; any other non-text value as notText.
  let s = z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? rule.invalid : rule.notText) })
    .overwrite(withoutHiddenCharacters)
    .trim()
    .max(rule.max, rule.tooLong);
  if (rule.required) {
    if (rule.min !== undefined) s = s.min(rule.min, rule.invalid);
    if (rule.pattern) s = s.regex(rule.pattern, rule.invalid);
    return s;
  }
  // An optional field may be left empty (or null, or out): only a value given is checked.
  const { options, outOfRange } = rule;
  const given = (check: (v: string) => boolean) => (v: string) => v === '' || check(v);
  if (options)
    s = s.refine(
      given((v) => options.includes(v)),
      rule.invalid,
    );
  if (outOfRange) {
    s = s.refine(given(isCalendarDate), rule.invalid);
    s = s.refine(
      given((v) => !isCalendarDate(v) || isDueDateInRange(v)),
      outOfRange,
    );
  }
  return s.nullish().transform((v) => v ?? '');
}

/**
 * The public contact form (SPEC 5, plus the optional buyer type, solicitation and response due
 * date), as `POST /api/contact` parses it. Built from the same rule
 * table the form validates with (src/shared/contact-rules.ts; tests/unit/contact-rules.test.ts
 * checks they agree).
 */
export const contactSchema = z.object({
  name: fieldSchema('name'),
  email: fieldSchema('email'),
  company: fieldSchema('company'),
  phone: fieldSchema('phone'),
  message: fieldSchema('message'),
  buyerType: fieldSchema('buyerType'),
  solicitation: fieldSchema('solicitation'),
  responseDue: fieldSchema('responseDue'),
});

/**
 * What the endpoint accepts: the form's fields plus the spam signals the form adds. The
 * honeypot `website` is a field people never see; `elapsedMs` is how long the form was open.
 */
export const contactRequestSchema = contactSchema.extend({
  website: z.string('Website must be text').max(2000, 'Website must be at most 2000 characters').nullish(),
  elapsedMs: z.number('elapsedMs must be a number').nullish(),
});
