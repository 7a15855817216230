import { z } from 'zod';
import { FONT_STACKS, TEMPLATE_TYPES } from '../constants';
import { EMAIL_PATTERN } from '../contact-rules';
import { DEFAULT_TEMPLATE } from '../fallbacks';
import { optionalUrl, patchSchema, requiredText } from './fields';

const hexColor = (fallback: string) =>
  z
    .string({ error: 'Invalid hex color' })
    .trim()
    .regex(/^#[0-9A-Fa-f]{6}$/, 'Invalid hex color')
    .default(fallback);

type FontStack = (typeof FONT_STACKS)[number];

/** The five font choices, value → label. */
export const FONT_LABELS: Record<FontStack, string> = {
  [FONT_STACKS[0]]: 'Segoe UI',
  [FONT_STACKS[1]]: 'Open Sans',
  [FONT_STACKS[2]]: 'Arial',
  [FONT_STACKS[3]]: 'Georgia',
  [FONT_STACKS[4]]: 'Roboto',
};

const fontName = (stack: string) =>
  (stack.split(',')[0] ?? '')
    .trim()
    .replace(/^(['"])(.*)\1$/, '$2')
    .trim()
    .toLowerCase();
const FONT_MESSAGE = `Font family must be one of: ${FONT_STACKS.map((s) => FONT_LABELS[s]).join(', ')}`;

/** A font given by its stack or by any list that starts with the same family ("Arial, sans-serif") is that stack. */
const fontFamily = z
  .string({ error: FONT_MESSAGE })
  .transform((value) => FONT_STACKS.find((stack) => fontName(stack) === fontName(value)) ?? value)
  .pipe(z.enum(FONT_STACKS, { error: FONT_MESSAGE }));

const ABSOLUTE_HTTP = /^https?:\/\/[^\s/?#]+\.?[^\s]*$/i;

/**
 * E-mail template, as the Templates dialog and its endpoints take it. A template is data placed into one fixed,
 * escaped layout: colours are #RRGGBB, the font one of the five offered stacks, links http(s).
 */
export const emailTemplateSchema = z.object({
  templateType: z.enum(TEMPLATE_TYPES, { error: 'Choose a template type' }).default('contact_response'),
  name: requiredText('Name is required'),
  headerBgColor: hexColor(DEFAULT_TEMPLATE.headerBgColor),
  headerTextColor: hexColor(DEFAULT_TEMPLATE.headerTextColor),
  contentBgColor: hexColor(DEFAULT_TEMPLATE.contentBgColor),
  contentTextColor: hexColor(DEFAULT_TEMPLATE.contentTextColor),
  accentColor: hexColor(DEFAULT_TEMPLATE.accentColor),
  fontFamily: fontFamily.default(DEFAULT_TEMPLATE.fontFamily as FontStack),
  companyLogo: optionalUrl(),
  footerText: requiredText('Footer text is required', 2000),
  signatureName: requiredText('Signature name is required'),
  signatureEmail: z
    .string({ error: 'Signature email must be a valid email address' })
    .trim()
    .max(254, 'Signature email must be a valid email address')
    .regex(EMAIL_PATTERN, 'Signature email must be a valid email address'),
  signatureWebsite: z
    .string({ error: 'Signature website must be a valid URL' })
    .trim()
    .max(2048, 'Signature website must be a valid URL')
    .regex(ABSOLUTE_HTTP, 'Signature website must be a valid URL (http:// or https://)'),
  /** 'Make this the active template for this type': the server keeps one active per type. */
  isActive: z.boolean().default(false),
});
export type EmailTemplateInput = z.input<typeof emailTemplateSchema>;
export type EmailTemplateValues = z.output<typeof emailTemplateSchema>;

export const emailTemplatePatchSchema = patchSchema(emailTemplateSchema);

/** 'Send test e-mail': the template as it stands in the dialog (saved or not), sent with sample content. */
export const templateTestSchema = z.object({
  template: emailTemplateSchema,
  /** Defaults to the signed-in administrator's own address. */
  to: z
    .string()
    .trim()
    .max(254, 'Please enter a valid email address')
    .regex(EMAIL_PATTERN, 'Please enter a valid email address')
    .optional(),
});
