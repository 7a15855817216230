import { z } from 'zod';
import { LIMITS } from '../constants';
import { activeFields, altText, optionalText, requiredText, requiredUrl, patchSchema } from './fields';

/** Website header content (SPEC 3, SPEC 5 "Header"). */
export const headerSchema = z.object({
  ...activeFields,
  title: requiredText('Title is required'),
  subtitle: requiredText('Subtitle is required', LIMITS.mediumText),
  backgroundImage: requiredUrl('Background image URL is required'),
  backgroundImageAlt: altText(),
  logoLight: requiredUrl('Light mode logo URL is required'),
  logoDark: requiredUrl('Dark mode logo URL is required'),
  boxHeading: optionalText(LIMITS.shortText),
  boxContent: optionalText(LIMITS.mediumText),
});
export type HeaderInput = z.input<typeof headerSchema>;

export const headerPatchSchema = patchSchema(headerSchema);
