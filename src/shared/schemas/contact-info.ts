import { z } from 'zod';
import { EMAIL_PATTERN } from '../contact-rules';
import { patchSchema, requiredText } from './fields';

/** Business contact information as the editor and its endpoints take it; one record is active. */
export const contactInfoSchema = z.object({
  email: z
    .string({ error: 'Valid email is required' })
    .trim()
    .max(254, 'Valid email is required')
    .regex(EMAIL_PATTERN, 'Valid email is required'),
  phone: requiredText('Phone is required', 50),
  address: requiredText('Address is required', 500),
  businessHours: requiredText('Business hours are required', 500),
  /** Displayed on the website; activating one record hides the others (the server keeps one). */
  isActive: z.boolean().default(true),
  displayEmail: z.boolean().default(true),
  displayPhone: z.boolean().default(true),
  displayAddress: z.boolean().default(true),
  displayBusinessHours: z.boolean().default(true),
});

export const contactInfoPatchSchema = patchSchema(contactInfoSchema);
