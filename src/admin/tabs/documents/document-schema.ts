import { z } from 'zod';
import { DOCUMENT_CATEGORIES } from '#shared/constants.ts';
import { optionalText, requiredText } from '#shared/schemas/fields.ts';

/** SPEC 5 "Document form": the metadata a document's form edits. */
export const documentFormSchema = z.object({
  title: requiredText('Title is required'),
  description: optionalText(),
  category: z.enum(DOCUMENT_CATEGORIES, { error: 'Category is required' }),
  isActive: z.boolean().default(true),
  // A non-numeric order becomes 0.
  displayOrder: z.preprocess(
    (v) => {
      const n = Number(v);
      return Number.isFinite(n) ? n : 0;
    },
    z.number().int('Display order must be a whole number of 0 or more').min(0, 'Display order must be a whole number of 0 or more'),
  ),
});
