import { z } from 'zod';
import { LIMITS, type ContentSection } from '../constants';
import { activeFields, altText, optionalText, optionalUrl, requiredText, patchSchema } from './fields';

/**
 * Generic content blocks (SPEC 3 "Content block", SPEC 5 rules), one schema per section. The
 * back-office forms and the endpoints parse with the same objects.
 */

const common = {
  ...activeFields,
  backgroundImage: optionalUrl(),
  imageUrl: optionalUrl(),
  imageAlt: altText(),
};

/** SPEC 5: paragraph, div and span tags and non-breaking spaces are stripped from the intro on save. */
export function stripIntroMarkup(value: string): string {
  return value
    .replace(/<\/?(?:p|div|span)(?:\s[^>]*)?>/gi, '')
    .replace(/&nbsp;|\u00a0/gi, ' ')
    .trim();
}

/** SPEC 3: the about block stores the subtitle as the first paragraph, then a blank line, then the body. */
export function joinAbout(subtitle: string, body: string): string {
  return `${subtitle.trim()}\n\n${body.trim()}`;
}
export function splitAbout(content: string): { subtitle: string; body: string } {
  const at = content.search(/\r?\n\s*\r?\n/);
  if (at < 0) return { subtitle: content.trim(), body: '' };
  return { subtitle: content.slice(0, at).trim(), body: content.slice(at).trim() };
}

export const introSchema = z.object({
  ...common,
  title: requiredText('Title is required'),
  content: z
    .string({ error: 'Content is required' })
    .transform(stripIntroMarkup)
    .pipe(requiredText('Content is required', LIMITS.mediumText)),
});

export const homeCtaSchema = z.object({
  ...common,
  title: requiredText('Title is required'),
  content: requiredText('Content is required', LIMITS.mediumText),
});

const servicesHeroSchema = z.object({
  ...common,
  title: requiredText('Title is required'),
  content: requiredText('Description is required', LIMITS.mediumText),
});

/**
 * About main content. `content` is the stored text (subtitle + blank line + body); a client that
 * sends `subtitle` separately has it joined on save. The form requires the subtitle
 * (`aboutFormSchema`).
 */
const aboutSchema = z.object({
  ...common,
  title: requiredText('Title is required'),
  subtitle: z.string().trim().max(LIMITS.mediumText, `Must be at most ${LIMITS.mediumText} characters`).optional(),
  content: z
    .string({ error: 'Content must be at least 10 characters' })
    .trim()
    .min(10, 'Content must be at least 10 characters')
    .max(LIMITS.longText, `Must be at most ${LIMITS.longText} characters`),
});
export const aboutFormSchema = aboutSchema.extend({
  subtitle: requiredText('Subtitle is required', LIMITS.mediumText),
});

export const missionSchema = z.object({
  ...common,
  title: requiredText('Title is required').default('Our Mission'),
  content: z
    .string({ error: 'Mission statement must be at least 10 characters' })
    .trim()
    .min(10, 'Mission statement must be at least 10 characters')
    .max(LIMITS.mediumText, `Must be at most ${LIMITS.mediumText} characters`),
});

const simpleBlockSchema = z.object({
  ...common,
  title: requiredText('Title is required'),
  content: requiredText('Content is required', LIMITS.mediumText),
  buttonText: optionalText(LIMITS.shortText),
});

export const CONTENT_BLOCK_SCHEMAS = {
  intro: introSchema,
  home_cta: homeCtaSchema,
  about: aboutSchema,
  about_mission: missionSchema,
  services_hero: servicesHeroSchema,
  services_overview: simpleBlockSchema,
  home_services: simpleBlockSchema,
} satisfies Record<ContentSection, z.ZodObject>;

/** What any section's schema yields (some sections ignore some fields). */
export interface ContentBlockValues {
  title: string;
  content: string;
  subtitle?: string;
  buttonText?: string | null;
  backgroundImage?: string | null;
  imageUrl?: string | null;
  imageAlt?: string | null;
  isActive?: boolean;
  active?: boolean;
}

/** A new block of `section`. */
export function contentCreateSchema(section: ContentSection): z.ZodType<ContentBlockValues> {
  return CONTENT_BLOCK_SCHEMAS[section] as unknown as z.ZodType<ContentBlockValues>;
}

export type ContentBlockPatch = Partial<ContentBlockValues> & { version?: number };

/** A partial update of a block of `section`, carrying the version the edit was based on. */
export function contentPatchSchema(section: ContentSection): z.ZodType<ContentBlockPatch> {
  return patchSchema(CONTENT_BLOCK_SCHEMAS[section] as z.ZodObject<z.ZodRawShape>) as unknown as z.ZodType<ContentBlockPatch>;
}
