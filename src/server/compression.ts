import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
export const gzip = promisify(zlib.gzip);

/** Smaller bodies are sent as they are: compressing them saves less than the header costs. */
export const MIN_COMPRESSED = 256;

/** A body's brotli copy at `quality`, made on libuv's pool. */
export const brotliCopy = (body: Buffer, quality: number): Promise<Buffer> =>
  brotli(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      // The smallest window that holds the file: same output size, a fraction of the memory.
      [zlib.constants.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(16, Math.ceil(Math.log2(body.length + 1)))),
    },
  });

/** A body's brotli (at `quality`) and gzip (at `level`) copies, made on libuv's pool; none for a small body. */
export async function compressedCopies(body: Buffer, quality: number, level: number): Promise<{ br: Buffer; gz: Buffer } | undefined> {
  if (body.length < MIN_COMPRESSED) return undefined;
  const [br, gz] = await Promise.all([brotliCopy(body, quality), gzip(body, { level })]);
  return { br, gz };
}
