import type { Readable } from 'node:stream';
import { env } from '../env';
import { createLocalStorage } from './local-disk';

/**
 * Where uploaded files live: local disk under DATA_DIR/uploads (served at /uploads/…) by default,
 * or Vercel Blob when BLOB_READ_WRITE_TOKEN is set. Keys are always made by the server
 * (`images/<hash>.png`, `documents/<random>.pdf`), never taken from a client's file name.
 */
export interface FileStorage {
  readonly driver: 'local' | 'blob';
  /**
   * Streams `body` to `key` and resolves once it is stored whole (a partial file is never
   * visible). More than `maxBytes` rejects with `TooLargeError` and stores nothing.
   */
  put(key: string, body: Readable, opts: { contentType: string; maxBytes?: number }): Promise<StoredFile>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
}

export interface StoredFile {
  key: string;
  /** The public URL: `/uploads/<key>` on local disk, the Blob URL otherwise. */
  url: string;
  size: number;
}

export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than ${maxBytes} bytes`);
    this.name = 'TooLargeError';
  }
}

/** A key the server made: lower-case letters, digits, `-`, `_`, `.` in at most two segments, no dot segments. */
const KEY = /^[a-z0-9_-]+\/[a-z0-9][a-z0-9_.-]*$/;
export function assertKey(key: string): void {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`Invalid storage key: ${key}`);
}

let instance: FileStorage | undefined;

/** The configured storage (chosen once per process). */
export async function storage(): Promise<FileStorage> {
  if (!instance) {
    const token = env().BLOB_READ_WRITE_TOKEN;
    instance = token ? (await import('./vercel-blob')).createBlobStorage(token) : createLocalStorage();
  }
  return instance;
}

/** Tests switch drivers between files. */
export function resetStorage(): void {
  instance = undefined;
}
