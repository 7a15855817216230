import { z } from 'zod';
import { LIMITS } from '../constants';
import { altText, displayOrderField, optionalText, optionalUrl, requiredText, patchSchema } from './fields';

/** Service offering (SPEC 3, SPEC 5 "Service"). The icon is one of SERVICE_ICONS in the form. */
export const serviceSchema = z.object({
  title: requiredText('Service name is required'),
  description: requiredText('Description is required', LIMITS.mediumText),
  icon: requiredText('Icon is required', 100),
  imageSrc: optionalUrl(),
  imageAlt: altText(),
  detailedDescription: optionalText(LIMITS.longText),
  isActive: z.boolean().default(true),
  /** Absent on create: the service goes last (SPEC 5: the default is the current count). */
  displayOrder: displayOrderField.optional(),
});

export const servicePatchSchema = patchSchema(serviceSchema);
