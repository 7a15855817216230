import { z } from 'zod';
import { BUYER_TYPES, LIMITS, SUBMISSION_STATUSES } from '../constants';
import { requiredText } from './fields';

/** `PATCH /api/contact-submissions/{id}/status` (any of the three, at any time). */
export const submissionStatusSchema = z.object({
  status: z.enum(SUBMISSION_STATUSES, { error: 'Status must be pending, in progress or completed' }),
});

/** `POST /api/contact-submissions/{id}/respond`: the Respond dialog's 'Your Response' (must not be blank). */
export const contactResponseSchema = z.object({
  message: requiredText('Response must not be blank', 10_000),
});
export type ContactResponseInput = z.input<typeof contactResponseSchema>;

/** `PATCH /api/contact-submissions/{id}/spam`: the Spam view's 'Not spam' (and its opposite). */
export const spamFlagSchema = z.object({
  isSpam: z.boolean({ error: 'isSpam must be true or false' }),
});

/**
 * The Contacts tab's filters, run in the database; the list, its counts' companion and the CSV
 * export take the same ones as query parameters. No `view` means both views (every submission,
 * each with its spam flag), as the list was before it had views; the tab always names one.
 */
export const submissionFilterSchema = z.object({
  view: z.enum(['inbox', 'spam'], { error: 'View must be inbox or spam' }).optional(),
  status: z.enum(['all', ...SUBMISSION_STATUSES], { error: 'Status must be all, pending, in_progress or completed' }).default('all'),
  q: z
    .string()
    .trim()
    .max(200, 'Search must be at most 200 characters')
    .refine((q) => q === '' || q.length >= LIMITS.submissionSearchMin, `Search needs at least ${LIMITS.submissionSearchMin} characters`)
    .default(''),
  buyerType: z.enum(BUYER_TYPES, { error: 'Buyer type must be government, manufacturer, consulting or other' }).optional(),
});
export type SubmissionFilter = z.output<typeof submissionFilterSchema>;

/** Largest page of `GET /api/contact-submissions`; the default is 50. */
const MAX_PAGE_SIZE = 200;
const DEFAULT_PAGE_SIZE = 50;

/** `GET /api/contact-submissions`: the filters, a page size and the opaque cursor from the previous page's `Link`. */
export const submissionPageQuerySchema = submissionFilterSchema.extend({
  limit: z.coerce
    .number({ error: `Limit must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .int(`Limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .min(1, `Limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .max(MAX_PAGE_SIZE, `Limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
  cursor: z.string().max(200, 'Invalid cursor').optional(),
});
export type SubmissionPageQuery = z.output<typeof submissionPageQuerySchema>;
