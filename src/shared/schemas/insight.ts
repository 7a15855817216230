import { z } from 'zod';
import { INSIGHT_CATEGORIES, LIMITS } from '../constants';
import { altText, optionalUrl, requiredText, patchSchema } from './fields';

/** SPEC 5: spaces become hyphens, anything but lowercase letters, digits and hyphens is dropped. */
export function normalizeSlug(value: string): string {
  return value
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9-]/g, '');
}

/** A slug generated from a title (used when the slug is left empty on create). */
export function slugFromTitle(title: string): string {
  return normalizeSlug(title.trim().replace(/[^A-Za-z0-9\s-]/g, ''))
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 200);
}

/** Tags are entered comma-separated: trimmed, empties dropped. A list is accepted as it is. */
function parseTags(value: unknown): unknown {
  const list = typeof value === 'string' ? value.split(',') : value;
  return Array.isArray(list) ? list.map((t) => (typeof t === 'string' ? t.trim() : t)).filter((t) => t !== '') : list;
}

/** Insight article (SPEC 3, SPEC 5 "Insight"). */
export const insightSchema = z.object({
  title: requiredText('Title is required'),
  category: z.enum(INSIGHT_CATEGORIES, { error: 'Category is required' }).default('industry_spotlights'),
  slug: z
    .string({ error: 'Slug is required' })
    .trim()
    .min(1, 'Slug is required')
    .max(200, 'Slug must be at most 200 characters')
    .regex(/^[a-z0-9-]+$/, 'Slug must contain only lowercase letters, numbers, and hyphens')
    // /insights/404 is the section's not-found page.
    .refine((slug) => slug !== '404', 'The slug 404 is reserved: please choose another'),
  excerpt: z
    .string({ error: 'Summary must be at least 10 characters' })
    .trim()
    .min(LIMITS.insightSummaryMin, 'Summary must be at least 10 characters')
    .max(LIMITS.insightSummaryMax, 'Summary must be at most 200 characters'),
  content: z
    .string({ error: 'Content must be at least 50 characters' })
    .trim()
    .min(LIMITS.insightContentMin, 'Content must be at least 50 characters')
    .max(LIMITS.longText, `Content must be at most ${LIMITS.longText} characters`),
  readMinutes: z.coerce
    .number({ error: 'Read time must be a whole number of at least 1' })
    .int('Read time must be a whole number of at least 1')
    .min(1, 'Read time must be a whole number of at least 1')
    .max(600, 'Read time must be at most 600 minutes')
    .default(LIMITS.insightReadMinutesDefault),
  authorName: requiredText('Author name is required'),
  authorTitle: requiredText('Author title is required'),
  featuredImage: optionalUrl(),
  featuredImageAlt: altText(),
  tags: z
    .preprocess(parseTags, z.array(z.string().max(50, 'Each tag must be at most 50 characters')).max(20, 'At most 20 tags'))
    .default([]),
  relatedInsights: z.array(z.number().int().positive()).max(20).default([]),
  isPublished: z.boolean().default(false),
  /** Stamped by the server when publishing without a date; cleared when unpublishing. */
  publicationDate: z.iso.datetime({ offset: true, error: 'Publication date must be an ISO date' }).nullish(),
});

export const insightPatchSchema = patchSchema(insightSchema);

/** The insights search box (GET /api/insights/search?q=): what a visitor typed. */
export const insightSearchSchema = z.object({
  q: z
    .string({ error: 'Type what to search for' })
    .max(LIMITS.insightSearchMax, `Search for at most ${LIMITS.insightSearchMax} characters`),
});
