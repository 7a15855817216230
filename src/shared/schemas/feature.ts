import { z } from 'zod';
import { FEATURE_SECTIONS, LIMITS, type FeatureSection } from '../constants';
import { displayOrderField, requiredText, patchSchema } from './fields';

/** Home feature card (SPEC 5 "Home feature"): title, description and icon required. */
export const featureSchema = z.object({
  section: z.enum(FEATURE_SECTIONS, { error: 'Unknown feature section' }).default('home'),
  title: requiredText('Title is required'),
  description: requiredText('Description is required', LIMITS.mediumText),
  icon: requiredText('Icon is required', 100),
  displayOrder: displayOrderField.default(0),
  isActive: z.boolean().default(true),
});

/** About (why-choose-us) card: the description needs at least 10 characters. */
export const aboutFeatureSchema = featureSchema.extend({
  section: z.literal('about').default('about'),
  description: z
    .string({ error: 'Description must be at least 10 characters' })
    .trim()
    .min(10, 'Description must be at least 10 characters')
    .max(LIMITS.mediumText, `Must be at most ${LIMITS.mediumText} characters`),
});

export function featureCreateSchema(section: FeatureSection) {
  return section === 'about' ? aboutFeatureSchema : featureSchema;
}
/** The section of a stored card never changes through a patch. */
export function featurePatchSchema(section: FeatureSection) {
  return patchSchema(featureCreateSchema(section).omit({ section: true }));
}
