import { z } from 'zod';
import { SUBMISSION_STATUSES } from '../constants';
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

/** The Contacts tab's filters; the CSV export takes the same ones as query parameters. */
export const submissionFilterSchema = z.object({
  view: z.enum(['inbox', 'spam'], { error: 'View must be inbox or spam' }).default('inbox'),
  status: z.enum(['all', ...SUBMISSION_STATUSES], { error: 'Status must be all, pending, in_progress or completed' }).default('all'),
  q: z.string().trim().max(200, 'Search must be at most 200 characters').default(''),
});
export type SubmissionFilter = z.output<typeof submissionFilterSchema>;
