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

/** SPEC 2.15: three suggested stock backgrounds at 1920x1000. */
export const SUGGESTED_BACKGROUNDS = [
  'https://images.unsplash.com/photo-1486406146926-c627a92ad1ab?w=1920&h=1000&fit=crop',
  'https://images.unsplash.com/photo-1497366216548-37526070297c?w=1920&h=1000&fit=crop',
  'https://images.unsplash.com/photo-1451187580459-43490279c0fa?w=1920&h=1000&fit=crop',
] as const;
