import { Readable } from 'node:stream';
import { and, eq, type SQL } from 'drizzle-orm';
import { LIMITS } from '#shared/constants.ts';
import { IMAGE_MESSAGES } from '#shared/schemas/upload.ts';
import { now } from '../clock';
import type { Db } from '../db/client';
import { uploads } from '../db/schema';
import { HttpError } from '../http';
import { storage } from '../storage/storage';
import { recordAudit, type Actor } from './audit';
import { inUseError, usesOf, type ImageUse } from './image-library';
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

/**
 * Removes an image unless content uses it: in one transaction its row is locked (a save that
 * would use it waits, then finds it gone: `holdImagesUsed`), its uses are read, and the row goes
 * with an audit record. Then its file and variants. Answers the uses that kept it, if any.
 */
async function removeUnused(db: Db, where: SQL, actor: Actor): Promise<ImageUse[]> {
  const removed = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(uploads)
      .where(and(where, eq(uploads.kind, 'image')))
      .for('update');
    if (!row) throw new HttpError(404, 'Image not found');
    const uses = await usesOf(tx, row.key);
    if (uses.length) return { row, uses };
    await tx.delete(uploads).where(eq(uploads.id, row.id));
    await recordAudit(tx, actor, { action: 'delete', entity: 'upload', entityId: row.id, before: row });
    return { row, uses };
  });
  if (removed.uses.length) return removed.uses;
  // After the row: a failure here leaves an unlisted file, never a row without its file.
  const store = await storage();
  for (const w of removed.row.variantWidths ?? []) await store.delete(variantOf(removed.row.key, w));
  await store.delete(removed.row.key);
  return [];
}

/**
 * DELETE /api/upload/image (SPEC 4, 7): removes an image, its variants and its row, unless stored
 * content still uses it; then it is kept (the picker only clears its own field).
 */
export async function deleteImage(db: Db, filename: string, actor: Actor): Promise<{ kept: boolean }> {
  const uses = await removeUnused(db, eq(uploads.key, `images/${filename}`), actor);
  return { kept: uses.length > 0 };
}

/** DELETE /api/admin/images/:id (the media library): refused with where it is used while any content uses it. */
export async function deleteLibraryImage(db: Db, id: number, actor: Actor): Promise<void> {
  const uses = await removeUnused(db, eq(uploads.id, id), actor);
  if (uses.length) throw inUseError(uses);
}
