import { Readable } from 'node:stream';
import { and, eq, or, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { LIMITS } from '#shared/constants.ts';
import { IMAGE_MESSAGES } from '#shared/schemas/upload.ts';
import { now } from '../auth/clock';
import type { Db } from '../db/client';
import { contentBlocks, emailTemplates, headerContent, insights, services, uploads } from '../db/schema';
import { HttpError } from '../http';
import { storage } from '../storage/storage';
import { recordAudit, type Actor } from './audit';
import { oneImageAtATime, processImage } from './image-files';
import { enforce } from './rate-limit';

/** Uploads per administrator: each one decodes and encodes up to five images. */
const UPLOADS_PER_WINDOW = 60;
const UPLOAD_WINDOW_MS = 10 * 60_000;

/** The variant of an image for width `w`: its URL or key with the extension replaced by `-<w>w.webp`. */
function variantOf(urlOrKey: string, width: number): string {
  return urlOrKey.replace(/\.[a-z]+$/, `-${width}w.webp`);
}

/** A client's file name, for display only: its last segment, printable, at most 200 characters. */
function displayName(name: string): string | null {
  const base = name.split(/[/\\]/).pop() ?? '';
  const clean = base
    .replace(/[^\p{L}\p{N} ._()-]/gu, '_')
    .trim()
    .slice(0, LIMITS.shortText);
  return clean || null;
}

export interface ImageUploadResult {
  url: string;
  width: number | null;
  height: number | null;
}

/**
 * POST /api/upload/image (SPEC 2.16, 7): stores the image under a name made from its content,
 * with its WebP variants beside it, and records it. Uploading the same image again stores the same
 * bytes under the same name and updates its row. `read` reads the request body: it is called when
 * the upload's turn in the image queue comes (`oneImageAtATime`), and the bytes it gave are let go
 * once they are processed, before the files are stored.
 */
export async function uploadImage(db: Db, read: () => Promise<{ bytes: Buffer; name: string }>, actor: Actor): Promise<ImageUploadResult> {
  await enforce(db, `image-upload:${actor.id}`, UPLOADS_PER_WINDOW, UPLOAD_WINDOW_MS, undefined, now());
  const { image, name } = await oneImageAtATime(async () => {
    const file = await read();
    if (file.bytes.length > LIMITS.imageMaxBytes) throw new HttpError(413, IMAGE_MESSAGES.tooLarge);
    return { image: await processImage(file.bytes), name: file.name };
  });
  const store = await storage();
  const key = `images/${image.hash}.${image.ext}`;
  // Variants first: once the original (and its row) exist, every variant it lists exists too.
  for (const v of image.variants) {
    await store.put(variantOf(key, v.width), Readable.from([v.bytes]), { contentType: 'image/webp' });
  }
  const stored = await store.put(key, Readable.from([image.bytes]), { contentType: image.contentType });
  const values = {
    kind: 'image' as const,
    storage: store.driver,
    key,
    url: stored.url,
    originalName: displayName(name),
    contentType: image.contentType,
    size: stored.size,
    width: image.width,
    height: image.height,
    variantWidths: image.variants.map((v) => v.width),
    uploadedBy: actor.id,
  };
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(uploads).where(eq(uploads.key, key));
    const [row] = await tx.insert(uploads).values(values).onConflictDoUpdate({ target: uploads.key, set: values }).returning();
    await recordAudit(tx, actor, { action: before ? 'update' : 'create', entity: 'upload', entityId: row!.id, before, after: row });
  });
  return { url: stored.url, width: image.width, height: image.height };
}

/** Every stored text that may hold an image URL: image fields, and texts that may embed one. */
const IMAGE_REFERENCES: [PgTable, PgColumn[]][] = [
  [headerContent, [headerContent.backgroundImage, headerContent.logoLight, headerContent.logoDark]],
  [contentBlocks, [contentBlocks.backgroundImage, contentBlocks.imageUrl, contentBlocks.content]],
  [services, [services.imageSrc, services.detailedDescription]],
  [insights, [insights.featuredImage, insights.content]],
  [emailTemplates, [emailTemplates.companyLogo]],
];

/** Whether any stored content still mentions the image or one of its variants. */
async function isReferenced(db: Db, url: string): Promise<boolean> {
  // The URL without its extension is also the start of every variant's URL.
  const stem = url.replace(/\.[a-z]+$/, '');
  for (const [table, columns] of IMAGE_REFERENCES) {
    const mentions = or(...columns.map((column) => sql`strpos(${column}, ${stem}) > 0`));
    const found = await db
      .select({ one: sql<number>`1` })
      .from(table)
      .where(mentions)
      .limit(1);
    if (found.length) return true;
  }
  return false;
}

/**
 * DELETE /api/upload/image (SPEC 4, 7): removes an image, its variants and its row, unless stored
 * content still uses it; then it is kept (the picker only clears its own field).
 */
export async function deleteImage(db: Db, filename: string, actor: Actor): Promise<{ kept: boolean }> {
  const key = `images/${filename}`;
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.key, key), eq(uploads.kind, 'image')));
  if (!row) throw new HttpError(404, 'Image not found');
  if (row.url && (await isReferenced(db, row.url))) return { kept: true };
  await db.transaction(async (tx) => {
    await tx.delete(uploads).where(eq(uploads.id, row.id));
    await recordAudit(tx, actor, { action: 'delete', entity: 'upload', entityId: row.id, before: row });
  });
  // After the row: a failure here leaves an unlisted file, never a row without its file.
  const store = await storage();
  for (const w of row.variantWidths ?? []) await store.delete(variantOf(key, w));
  await store.delete(key);
  return { kept: false };
}
