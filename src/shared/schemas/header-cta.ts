import { z } from 'zod';
import { BUTTON_STYLES } from '../constants';
import { requiredLink, requiredText, patchSchema } from './fields';

/** Header call-to-action button (SPEC 3, SPEC 5 "Header CTA"); only one version is active. */
export const headerCtaSchema = z.object({
  buttonText: requiredText('Button text is required', 60),
  buttonLink: requiredLink('Button link is required'),
  buttonStyle: z.enum(BUTTON_STYLES, { error: 'Choose a button style' }).default('primary'),
  isVisible: z.boolean().default(true),
  isActive: z.boolean().default(false),
});

export const headerCtaPatchSchema = patchSchema(headerCtaSchema);
