import { z } from 'zod';

/** SPEC 5 (image picker) and SPEC 8: the texts an image upload answers with. */
export const IMAGE_MESSAGES = {
  uploaded: 'Image uploaded successfully',
  invalidType: 'Invalid file type. Only images are allowed (JPG, PNG, GIF, SVG, WebP).',
  tooLarge: 'File is too large. Maximum size is 5MB.',
} as const;

/**
 * The last segment of an image URL the server made: the first 32 hex digits of the SHA-256 of the
 * stored bytes and the extension it chose (SPEC 7, DELETE /api/upload/image).
 */
const IMAGE_FILENAME = /^[a-f0-9]{32}\.(?:jpg|png|gif|webp|svg)$/;

export const imageDeleteSchema = z.object({
  filename: z.string().max(200).regex(IMAGE_FILENAME, 'Invalid image file name'),
});

/**
 * GET /api/admin/images: words of a file name, and a page number; or one image's address (`url`),
 * which finds that upload alone (a picker shows the file's original name, not its stored one).
 */
export const imageLibraryQuerySchema = z.object({
  q: z.string().max(200, 'Search must be at most 200 characters').default(''),
  url: z.string().max(2048, 'URL must be at most 2048 characters').optional(),
  page: z.coerce
    .number({ error: 'Page must be a whole number from 1' })
    .int('Page must be a whole number from 1')
    .min(1, 'Page must be a whole number from 1')
    .max(10_000, 'Page must be a whole number from 1')
    .default(1),
});
