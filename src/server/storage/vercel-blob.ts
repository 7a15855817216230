import { Transform, pipeline } from 'node:stream';
import { del, put } from '@vercel/blob';
import { TooLargeError, assertKey, byteLimit, type FileStorage } from './file-storage';

/**
 * Vercel Blob (BLOB_READ_WRITE_TOKEN). Files are public and keep the server-made key as their
 * pathname (no random suffix), so `upload.url` is the Blob URL `https://<store>.public.blob.vercel-storage.com/<key>`.
 * The package reads its API address from VERCEL_BLOB_API_URL (default https://vercel.com/api/blob)
 * and sends the token as `authorization: Bearer <token>`.
 */
export function createBlobStorage(token: string): FileStorage {
  return {
    driver: 'blob',
    async put(key, body, { contentType, maxBytes }) {
      assertKey(key);
      let size = 0;
      let failure: unknown;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      // The body streams to the Blob API; past maxBytes (or on any read error) the stream fails
      // and the request is aborted, so nothing is stored and a spent stream is never retried.
      const abort = new AbortController();
      const stages = maxBytes === undefined ? [counter] : [counter, byteLimit(maxBytes)];
      const source = pipeline(body, ...(stages as [Transform]), (err) => {
        if (!err) return;
        failure = err;
        abort.abort(err);
      });
      try {
        // Keys are content-addressed or random, never rewritten with other bytes: cached for a year.
        const blob = await put(key, source, {
          access: 'public',
          addRandomSuffix: false,
          allowOverwrite: true,
          contentType,
          cacheControlMaxAge: 31_536_000,
          token,
          abortSignal: abort.signal,
        });
        return { key, url: blob.url, size };
      } catch (err) {
        throw failure instanceof TooLargeError ? failure : err;
      }
    },
    async delete(key) {
      assertKey(key);
      // A missing blob is not an error for the API either.
      await del(key, { token });
    },
  };
}
