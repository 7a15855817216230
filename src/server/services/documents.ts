import { createHash, randomBytes } from 'node:crypto';
import { Transform, pipeline, type Readable } from 'node:stream';
import { and, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { LIMITS } from '#shared/constants.ts';
import type { DocumentUploadResult, DocumentUploadSlot } from '#shared/responses.ts';
import {
  DOCUMENT_NOT_PDF,
  DOCUMENT_TOO_LARGE,
  NO_FILE_UPLOADED,
  cleanFileName,
  type documentPatchSchema,
  type documentSchema,
} from '#shared/schemas/document.ts';
import { now } from '../clock';
import { getDb, type Db, type Tx } from '../db/client';
import { documents, uploads, type Document, type Upload } from '../db/schema';
import { HttpError } from '../http';
import { log } from '../log';
import type { RequestPublish } from '../content/changes';
import { TooLargeError } from '../storage/file-storage';
import { storage } from '../storage/storage';
import { recordAudit, type Actor } from './audit';
import { createRow, updateRow } from './versioned';

/*
 * Capability documents (SPEC 2.9, 2.15 Documents tab, SPEC 7). A file arrives in two steps: an
 * administrator asks for an upload URL (POST /api/documents/upload), the browser PUTs the PDF to
 * it, then the document is created with that file's url. The URL carries a random single-use
 * token; only its SHA-256 is stored.
 */

/** The path the file is PUT to; the token follows it. */
export const DOCUMENT_UPLOAD_PATH = '/api/documents/upload/';
/** How long an upload URL can be used to start the upload. */
const UPLOAD_TTL_MS = 15 * 60_000;
/**
 * A claimed upload that never completed is dead after this long (a request cannot last that
 * long), so the sweep may remove it and its file.
 */
const STALE_CLAIM_MS = UPLOAD_TTL_MS + 60 * 60_000;
/** A completed upload no document took (the dialog was cancelled) is removed after a day. */
const UNATTACHED_MS = 24 * 60 * 60_000;
const PDF_TYPE = 'application/pdf';
/** Every PDF starts with these bytes (ISO 32000-1, 7.5.2). */
const PDF_SIGNATURE = Buffer.from('%PDF-', 'latin1');
/** 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const UPLOAD_NOT_FOUND = 'Upload link not found';
const UPLOAD_EXPIRED = 'This upload link has expired. Please start the upload again.';
const UPLOAD_USED = 'This upload link has already been used. Please start the upload again.';

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Removes what abandoned uploads left: links that expired unused, claims that never completed,
 * and completed files no document took within a day (rows and stored files). Runs on each new
 * upload request, so it needs no timer.
 */
async function sweepUploads(db: Db): Promise<void> {
  const t = now();
  const dead = await db
    .delete(uploads)
    .where(
      and(
        eq(uploads.kind, 'document'),
        or(
          // Never claimed, and expired.
          and(isNull(uploads.completedAt), isNotNull(uploads.expiresAt), lt(uploads.expiresAt, t)),
          // Claimed (expiresAt cleared) but never completed.
          and(isNull(uploads.completedAt), isNull(uploads.expiresAt), lt(uploads.createdAt, new Date(t.getTime() - STALE_CLAIM_MS))),
          // Completed, never attached.
          and(
            isNotNull(uploads.completedAt),
            lt(uploads.completedAt, new Date(t.getTime() - UNATTACHED_MS)),
            sql`not exists (select 1 from ${documents} where ${documents.filePath} = ${uploads.url})`,
          ),
        ),
      ),
    )
    .returning({ key: uploads.key });
  if (!dead.length) return;
  const store = await storage();
  for (const { key } of dead) {
    await store.delete(key).catch((err: unknown) => log.warn('removing an abandoned upload failed', { key, err }));
  }
}

/** POST /api/documents/upload: a fresh single-use URL to PUT one PDF to, valid for 15 minutes. */
export async function createUploadSlot(db: Db, actor: Actor): Promise<DocumentUploadSlot> {
  await sweepUploads(db);
  const store = await storage();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now().getTime() + UPLOAD_TTL_MS);
  await db.insert(uploads).values({
    kind: 'document',
    storage: store.driver,
    // 128 random bits: the key is never guessable from the token or from other keys.
    key: `documents/${randomBytes(16).toString('hex')}.pdf`,
    uploadTokenHash: hashToken(token),
    expiresAt,
    uploadedBy: actor.id,
  });
  return { uploadURL: DOCUMENT_UPLOAD_PATH + token, expiresAt: expiresAt.toISOString() };
}

/**
 * Takes the upload link for this request. The conditional UPDATE lets exactly one of several
 * concurrent requests win; claiming clears `expiresAt`, so the link is then "used" for good, even
 * if this upload fails: a failed upload (not a PDF, too large, broken off) is started over from a
 * new link, which costs one call, and a link is never written twice.
 */
async function claimUpload(db: Db, token: string, userId: string): Promise<Upload> {
  if (!TOKEN.test(token)) throw new HttpError(404, UPLOAD_NOT_FOUND);
  const hash = hashToken(token);
  const mine = and(eq(uploads.uploadTokenHash, hash), eq(uploads.kind, 'document'), eq(uploads.uploadedBy, userId));
  const [claimed] = await db
    .update(uploads)
    .set({ expiresAt: null })
    .where(and(mine, isNull(uploads.completedAt), gt(uploads.expiresAt, now())))
    .returning();
  if (claimed) return claimed;
  const [row] = await db.select().from(uploads).where(mine);
  if (!row) throw new HttpError(404, UPLOAD_NOT_FOUND);
  if (row.completedAt || !row.expiresAt) throw new HttpError(409, UPLOAD_USED);
  throw new HttpError(410, UPLOAD_EXPIRED);
}

/** Passes bytes on only once the first five are `%PDF-`; anything else fails with 415. */
function pdfSignature(): Transform {
  let head: Buffer | null = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!head) return done(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length < PDF_SIGNATURE.length) return done();
      if (!head.subarray(0, PDF_SIGNATURE.length).equals(PDF_SIGNATURE)) return done(new HttpError(415, DOCUMENT_NOT_PDF));
      const first = head;
      head = null;
      done(null, first);
    },
    flush(done) {
      // Fewer than five bytes in all (or none): not a PDF.
      done(head ? new HttpError(415, DOCUMENT_NOT_PDF) : null);
    },
  });
}

/**
 * PUT {uploadURL}: streams the body to storage (never held whole in memory) as the file of the
 * upload `token` names. Refused: an unknown link (404), one already used (409) or expired (410), a
 * declared or counted size over 50 MB (413), bytes that do not start `%PDF-` (415). On any failure
 * the partial file is removed and the link stays used.
 */
export async function receiveDocumentUpload(
  db: Db,
  token: string,
  body: Readable,
  ctx: { userId: string; contentLength?: number },
): Promise<DocumentUploadResult> {
  if (ctx.contentLength !== undefined && ctx.contentLength > LIMITS.documentMaxBytes) {
    throw new HttpError(413, DOCUMENT_TOO_LARGE);
  }
  const row = await claimUpload(db, token, ctx.userId);
  const store = await storage();
  try {
    const checked = pipeline(body, pdfSignature(), () => {});
    const stored = await store.put(row.key, checked, { contentType: PDF_TYPE, maxBytes: LIMITS.documentMaxBytes });
    await db
      .update(uploads)
      .set({ completedAt: now(), size: stored.size, contentType: PDF_TYPE, url: stored.url })
      .where(eq(uploads.id, row.id));
    return { success: true, url: stored.url, fileSize: stored.size, message: 'Upload successful' };
  } catch (err) {
    await store.delete(row.key).catch((e: unknown) => log.warn('removing a failed upload failed', { key: row.key, err: e }));
    if (err instanceof TooLargeError) throw new HttpError(413, DOCUMENT_TOO_LARGE);
    throw err;
  }
}

/** The completed document upload behind `filePath` that no document uses yet; locked until commit. */
async function unattachedUpload(tx: Tx, filePath: string): Promise<Upload> {
  const [row] = await tx
    .select()
    .from(uploads)
    .where(and(eq(uploads.url, filePath), eq(uploads.kind, 'document'), isNotNull(uploads.completedAt)))
    .for('update');
  if (!row?.url) throw new HttpError(400, NO_FILE_UPLOADED);
  const [taken] = await tx.select({ id: documents.id }).from(documents).where(eq(documents.filePath, filePath)).limit(1);
  if (taken) throw new HttpError(400, NO_FILE_UPLOADED);
  return row;
}

/**
 * POST /api/documents. Only the url of a completed upload is trusted as filePath; the size and type
 * come from that upload, not from the client, and the file name is cleaned.
 */
export async function createDocument(
  db: Db,
  input: z.output<typeof documentSchema>,
  actor: Actor,
  publish: RequestPublish,
): Promise<Document> {
  const created = await createRow<Document>(
    db,
    documents,
    async (tx) => {
      const file = await unattachedUpload(tx, input.filePath);
      return {
        title: input.title,
        description: input.description,
        category: input.category,
        isActive: input.isActive,
        displayOrder: input.displayOrder,
        filePath: file.url,
        fileName: cleanFileName(input.fileName, input.title),
        fileSize: file.size,
        fileType: file.contentType,
      };
    },
    { actor, entity: 'document' },
  );
  await publish({ kind: 'document', id: created.id, action: 'created' });
  return created;
}

/** PUT /api/documents/{id}: metadata only; a stale version is refused (409). */
export async function updateDocument(
  db: Db,
  id: number,
  patch: z.output<typeof documentPatchSchema>,
  actor: Actor,
  publish: RequestPublish,
): Promise<Document> {
  const { after } = await updateRow<Document>(db, documents, id, patch, { actor, entity: 'document', notFound: 'Document not found' });
  await publish({ kind: 'document', id, action: 'updated' });
  return after;
}

/** DELETE /api/documents/{id}: the row, its upload record and the stored file. */
export async function deleteDocument(db: Db, id: number, actor: Actor, publish: RequestPublish): Promise<Document> {
  const { row, key } = await db.transaction(async (tx) => {
    const [doc] = await tx.select().from(documents).where(eq(documents.id, id)).for('update');
    if (!doc) throw new HttpError(404, 'Document not found');
    await tx.delete(documents).where(eq(documents.id, id));
    // The upload goes too, so its url can never be attached to another document.
    const [file] = await tx
      .delete(uploads)
      .where(and(eq(uploads.url, doc.filePath), eq(uploads.kind, 'document')))
      .returning({ key: uploads.key });
    await recordAudit(tx, actor, { action: 'delete', entity: 'document', entityId: id, before: doc });
    return { row: doc, key: file?.key };
  });
  if (key) await (await storage()).delete(key).catch((err: unknown) => log.warn('removing a document file failed', { key, err }));
  await publish({ kind: 'document', id, action: 'deleted' });
  return row;
}

/**
 * Whether the stored file `key` may be served: only the file of an active document. An inactive
 * or deleted document's file, and an upload no document uses, are not downloadable.
 */
/** The `/uploads` veto (app-server `uploads.guard`): images always, documents only while active. */
export function servableUpload(key: string): boolean | Promise<boolean> {
  return !key.startsWith('documents/') || isServableDocument(key);
}

export async function isServableDocument(key: string): Promise<boolean> {
  if (!key.startsWith('documents/')) return false;
  const db = await getDb();
  const [row] = await db
    .select({ id: documents.id })
    .from(uploads)
    .innerJoin(documents, eq(documents.filePath, uploads.url))
    .where(and(eq(uploads.key, key), eq(uploads.kind, 'document'), isNotNull(uploads.completedAt), eq(documents.isActive, true)))
    .limit(1);
  return Boolean(row);
}
