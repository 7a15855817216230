import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isKey } from '../storage/file-storage';
import { API_CSP, baseSecurityHeaders } from './security-headers';
import { noneMatch } from './static-site';

/**
 * Whether a stored file may be downloaded now (e.g. a document set inactive may not). Called for
 * every `/uploads/<key>` request with a valid key before the file is opened; false answers 404.
 */
export type UploadGuard = (key: string) => boolean | Promise<boolean>;

/** Types by the extension the server chose when it made the key (never the client's). */
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

/** An SVG opened directly is a document: it may style itself, nothing else (no script, no load). */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export const UPLOADS_PREFIX = '/uploads/';

const single = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

function sendJson(res: http.ServerResponse, status: number, message: string): void {
  const text = JSON.stringify({ message });
  res.statusCode = status;
  res.setHeader('content-security-policy', API_CSP);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * GET or HEAD `/uploads/<key>` from `root` (DATA_DIR/uploads, local storage). Only keys the server
 * could have made are looked up, taken from the raw path (no decoding): `..`, `%2e`, backslashes,
 * NUL or any other character outside a key answer 404 before the file system is touched. Every key
 * is content-addressed or random and never rewritten, so answers are cached for a year. The file
 * is streamed, never read whole.
 */
export async function serveUpload(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  pathname: string,
  opts: { root: string; secure: boolean; guard?: UploadGuard },
): Promise<void> {
  for (const [k, v] of Object.entries(baseSecurityHeaders(opts.secure))) res.setHeader(k, v);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return sendJson(res, 405, 'Method not allowed');
  }
  const key = pathname.slice(UPLOADS_PREFIX.length);
  const type = TYPES[key.slice(key.lastIndexOf('.') + 1)];
  if (!isKey(key) || !type || (opts.guard && !(await opts.guard(key)))) return sendJson(res, 404, 'Not found');

  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(path.join(opts.root, key), 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return sendJson(res, 404, 'Not found');
    throw err;
  }
  let streaming = false;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return sendJson(res, 404, 'Not found');
    const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    res.setHeader('etag', etag);
    // A document can be deactivated: caches revalidate (304 while it is still served). Images are immutable.
    res.setHeader('cache-control', key.startsWith('documents/') ? 'no-cache' : 'public, max-age=31536000, immutable');
    if (type === 'image/svg+xml') res.setHeader('content-security-policy', SVG_CSP);
    else if (type === 'application/pdf') res.setHeader('content-disposition', 'inline');
    else res.setHeader('content-security-policy', API_CSP);
    if (noneMatch(single(req.headers['if-none-match']), etag)) {
      res.statusCode = 304;
      return void res.end();
    }
    res.statusCode = 200;
    res.setHeader('content-type', type);
    res.setHeader('content-length', stat.size);
    if (req.method === 'HEAD') return void res.end();
    streaming = true;
    // The stream closes the file when it ends or fails; a client that goes away fails it.
    await pipeline(handle.createReadStream(), res).catch(() => res.destroy());
  } finally {
    if (!streaming) await handle.close();
  }
}
