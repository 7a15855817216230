import { bigint, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { uploadKind } from './enums';

/**
 * Every stored file (images and PDFs), on local disk or Vercel Blob. A document upload first
 * gets a row with an upload token (the PUT target); it is completed when the bytes arrive.
 */
export const uploads = pgTable(
  'upload',
  {
    id: serial('id').primaryKey(),
    kind: uploadKind('kind').notNull(),
    /** 'local' or 'blob'. */
    storage: text('storage').notNull(),
    /** Storage key (file name on disk, pathname in Blob). */
    key: text('key').notNull().unique(),
    url: text('url'),
    originalName: text('original_name'),
    contentType: text('content_type'),
    size: bigint('size', { mode: 'number' }),
    /** Raster images: intrinsic size, and the widths of the WebP variants made at upload (`<key>-<w>w.webp`). */
    width: integer('width'),
    height: integer('height'),
    variantWidths: integer('variant_widths').array(),
    /** Hash of the one-time PUT token for the two-step document upload. */
    uploadTokenHash: text('upload_token_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    uploadedBy: text('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('upload_token_idx').on(t.uploadTokenHash)],
);
export type Upload = typeof uploads.$inferSelect;
