import { Transform, type Readable } from 'node:stream';

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

interface StoredFile {
  key: string;
  /** The public URL: `/uploads/<key>` on local disk, the Blob URL otherwise. */
  url: string;
  size: number;
}

/** A stored file passed its byte limit. */
export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than ${maxBytes} bytes`);
    this.name = 'TooLargeError';
  }
}

/** Counts bytes as they pass and fails the stream with `TooLargeError` past `max`. */
export function byteLimit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) done(new TooLargeError(max));
      else done(null, chunk);
    },
  });
}

/** A key the server made: lower-case letters, digits, `-`, `_`, `.` in at most two segments, no dot segments. */
const KEY = /^[a-z0-9_-]+\/[a-z0-9][a-z0-9_.-]*$/;
export function isKey(key: string): boolean {
  return KEY.test(key) && !key.includes('..');
}
export function assertKey(key: string): void {
  if (!isKey(key)) throw new Error(`Invalid storage key: ${key}`);
}
