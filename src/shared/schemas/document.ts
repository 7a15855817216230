import { z } from 'zod';
import { DOCUMENT_CATEGORIES, LIMITS } from '../constants';
import { displayOrderField, optionalText, patchSchema, requiredText } from './fields';

/** SPEC 9: the document form's upload limit, in MB (50). */
const DOCUMENT_MAX_MB = LIMITS.documentMaxBytes / (1024 * 1024);

/** SPEC 5 "Document file upload" messages. */
export const DOCUMENT_TOO_LARGE = `File size must be less than ${DOCUMENT_MAX_MB}MB`;
export const DOCUMENT_NOT_PDF = 'Please upload a PDF file';
/** SPEC 5 "Document form": creating without an uploaded file. */
export const NO_FILE_UPLOADED = 'No file uploaded - Please upload a file before creating the document.';

/** File names are shown and used as the download name: at most this many characters. */
const DOCUMENT_FILE_NAME_MAX = 255;

/** SPEC 5: displayOrder is a number of at least 0, default 0; a non-numeric value becomes 0. */
const documentDisplayOrder = z.preprocess((value) => {
  if (value === undefined || value === null || value === '') return 0;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  return Number.isNaN(n) ? 0 : n;
}, displayOrderField);

/**
 * The document's own fields (SPEC 5 "Document form"): what the upload dialog and the edit dialog
 * (SPEC 2.15 Documents tab, metadata only) both send.
 */
const documentFieldsSchema = z.object({
  title: requiredText('Title is required'),
  description: optionalText(LIMITS.mediumText),
  category: z.enum(DOCUMENT_CATEGORIES, { error: 'Category is required' }),
  isActive: z.boolean().default(true),
  displayOrder: documentDisplayOrder,
});

/**
 * POST /api/documents (SPEC 7): the fields plus the uploaded file's details. The server keeps only
 * a filePath that is the url of a completed upload not yet attached to a document; the size and
 * type are taken from that upload, and the file name is cleaned (see `cleanFileName`).
 */
export const documentSchema = documentFieldsSchema.extend({
  filePath: z.string({ error: NO_FILE_UPLOADED }).trim().min(1, NO_FILE_UPLOADED).max(LIMITS.url, NO_FILE_UPLOADED),
  fileName: z.string().max(DOCUMENT_FILE_NAME_MAX, `Must be at most ${DOCUMENT_FILE_NAME_MAX} characters`).nullish(),
  fileSize: z.number().nullish(),
  fileType: z.string().max(LIMITS.shortText).nullish(),
});

/** PUT /api/documents/{id}: metadata only, with the version the edit was based on. */
export const documentPatchSchema = patchSchema(documentFieldsSchema);

/** A control character, or a path separator (`/`, `\`) of any system. */
// eslint-disable-next-line no-control-regex
const UNSAFE_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f/\\]/g;

/**
 * The name a download is offered under: no path, no control characters, no leading dots, at most
 * 255 characters, always ending `.pdf`. An empty result falls back to `fallback`.
 */
export function cleanFileName(raw: string | null | undefined, fallback = 'document'): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  let name = base
    .replace(UNSAFE_NAME_CHARS, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\.pdf$/i, '')
    .replace(/^[.\s]+|[.\s]+$/g, '');
  if (!name) name = fallback.replace(UNSAFE_NAME_CHARS, '').trim() || 'document';
  return `${name.slice(0, DOCUMENT_FILE_NAME_MAX - 4)}.pdf`;
}
