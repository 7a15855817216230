import type { FileStorage } from './storage';

/** Vercel Blob (BLOB_READ_WRITE_TOKEN). */
export function createBlobStorage(_token: string): FileStorage {
  throw new Error('Vercel Blob storage is not implemented yet');
}
