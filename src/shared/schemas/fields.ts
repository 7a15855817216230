import { z } from 'zod';
import { LIMITS } from '../constants';

/*
 * Field builders shared by the content schemas: every stored text has a maximum length, and
 * every URL a visitor could follow is limited to safe schemes (no javascript:, data:, //host).
 */

/** A required, trimmed text: empty → `message`. */
export function requiredText(message: string, max: number = LIMITS.shortText) {
  return z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);
}

/** An optional text; empty becomes null so a cleared field clears the stored value. */
export function optionalText(max: number = LIMITS.mediumText) {
  return z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));
}

/**
 * Characters a name or sentence of the business never needs, which hide or disguise what it says:
 * control characters (tab and line breaks excepted), zero-width characters, and the marks,
 * embeddings, overrides and isolates that reorder text (U+202E shows `fdp.exe` as `exe.pdf`).
 */
// eslint-disable-next-line no-control-regex
const HIDDEN_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;
const HIDDEN_CHARACTERS_MESSAGE = 'Must not contain control, invisible or text-direction characters';

/**
 * The text without those characters: for what visitors send (the contact form), where a refusal
 * would turn a buyer away for a character she cannot see, while kept it could make the inbox show
 * a name or address reversed.
 */
export const withoutHiddenCharacters = (v: string): string => v.replace(new RegExp(HIDDEN_CHARACTERS.source, 'g'), '');
const visible = (v: string | null) => v === null || !HIDDEN_CHARACTERS.test(v);

/** requiredText that refuses hidden characters (the business's identity: names, statements). */
export function requiredPlainText(message: string, max?: number) {
  return requiredText(message, max).refine(visible, HIDDEN_CHARACTERS_MESSAGE);
}

/** optionalText that refuses hidden characters. */
export function optionalPlainText(max?: number) {
  return optionalText(max).refine(visible, HIDDEN_CHARACTERS_MESSAGE);
}

const RELATIVE = /^(?:\/(?!\/)|\.\.?\/|#|\?)\S*$/;
const HTTP = /^https?:\/\/[^\s/?#]+[^\s]*$/i;
const MAILTO = /^mailto:[^\s@]+@[^\s@]+$/i;
const TEL = /^tel:\+?[0-9().\s-]{3,}$/i;

const LINK_MESSAGE = 'Link must be a relative path, an http(s) URL, mailto: or tel:';
export const URL_MESSAGE = 'URL must be a relative path or start with http:// or https://';

/**
 * A link a visitor follows: http(s), relative, mailto: or tel:. Never a backslash: browsers read
 * `/\evil.example` as `//evil.example`, another site.
 */
export function isSafeLink(value: string): boolean {
  return !value.includes('\\') && (HTTP.test(value) || RELATIVE.test(value) || MAILTO.test(value) || TEL.test(value));
}
/** An image or page URL: http(s) or relative only, never with a backslash. */
export function isSafeUrl(value: string): boolean {
  return !value.includes('\\') && (HTTP.test(value) || RELATIVE.test(value));
}

export function requiredLink(message: string) {
  return requiredText(message, LIMITS.url).refine(isSafeLink, LINK_MESSAGE);
}
export function requiredUrl(message: string) {
  return requiredText(message, LIMITS.url).refine(isSafeUrl, URL_MESSAGE);
}
export function optionalUrl() {
  return optionalText(LIMITS.url).refine((v) => v === null || isSafeUrl(v), URL_MESSAGE);
}

/** Alternative text of an image (SPEC 2.16): empty means the image is decorative. */
export function altText() {
  return optionalText(LIMITS.altText);
}

/** A non-negative integer display order; form inputs send strings, which are coerced. */
export const displayOrderField = z.coerce
  .number({ error: 'Display order must be a whole number of 0 or more' })
  .int('Display order must be a whole number of 0 or more')
  .min(0, 'Display order must be a whole number of 0 or more')
  .max(100_000, 'Display order must be at most 100000');

/**
 * The version the edit was based on (optimistic concurrency): a stale one is refused with 409.
 * Optional so that a client that never read a version (a spec-only client) can still patch.
 */
const versionField = z.number().int().positive().optional();

type WithoutDefault<S> = S extends z.ZodDefault<infer I> ? I : S;
type PatchShape<T extends z.ZodRawShape> = { [K in keyof T]: z.ZodOptional<WithoutDefault<T[K]>> } & {
  version: typeof versionField;
};

/**
 * The partial-update variant of a create schema: every field optional and without its default
 * (a patch of the title must not reset the display order), plus the version the edit was based on.
 */
export function patchSchema<T extends z.ZodRawShape>(schema: z.ZodObject<T>): z.ZodObject<PatchShape<T>> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => [key, field instanceof z.ZodDefault ? field.unwrap() : field]),
  );
  return z.object(shape).partial().extend({ version: versionField }) as unknown as z.ZodObject<PatchShape<T>>;
}

/** `active` (SPEC 7 generic content) and `isActive` both name the flag; either may be sent. */
export const activeFields = {
  isActive: z.boolean().optional(),
  active: z.boolean().optional(),
};

/** The flag of a body that may carry `active` or `isActive`; `isActive` wins. */
export function activeFlag(body: { isActive?: boolean; active?: boolean }): boolean | undefined {
  return body.isActive ?? body.active;
}
