import type http from 'node:http';
import path from 'node:path';
import { isKey } from '../storage/file-storage';
import { API_CSP, baseSecurityHeaders } from '../security-headers';
import { sendJson, setAll } from './respond';
import { streamFile } from './static-site';

/**
 * Whether a stored file may be downloaded now (e.g. a document set inactive may not). Called for
 * every `/uploads/<key>` request with a valid key before the file is opened; false answers 404.
 */
export type UploadGuard = (key: string) => boolean | Promise<boolean>;

/** The extensions the server gives the files it stores (never the client's): nothing else is served. */
const SERVED = /\.(?:jpg|png|gif|webp|svg|pdf)$/;

/** An SVG opened directly is a document: it may style itself, nothing else (no script, no load). */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export const UPLOADS_PREFIX = '/uploads/';

const refuse = (res: http.ServerResponse, status: number, message: string) => {
  res.setHeader('content-security-policy', API_CSP);
  sendJson(res, status, { message });
};

/**
 * GET or HEAD `/uploads/<key>` from `root` (DATA_DIR/uploads, local storage), streamed by `send`
 * (type, ETag, 304, ranges). Only keys the server could have made are looked up, taken from the
 * raw path (no decoding): `..`, `%2e`, backslashes, NUL or any other character outside a key
 * answer 404 before the file system is touched. Every key is content-addressed or random and never
 * rewritten, so images are cached for a year.
 */
export async function serveUpload(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  pathname: string,
  opts: { root: string; secure: boolean; guard?: UploadGuard },
): Promise<void> {
  setAll(res, baseSecurityHeaders(opts.secure));
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return refuse(res, 405, 'Method not allowed');
  }
  const key = pathname.slice(UPLOADS_PREFIX.length);
  if (!isKey(key) || !SERVED.test(key) || (opts.guard && !(await opts.guard(key)))) return refuse(res, 404, 'Not found');
  // A document can be deactivated: caches revalidate (304 while it is still served). Images are immutable.
  res.setHeader('cache-control', key.startsWith('documents/') ? 'no-cache' : 'public, max-age=31536000, immutable');
  if (key.endsWith('.svg')) res.setHeader('content-security-policy', SVG_CSP);
  else if (key.endsWith('.pdf')) res.setHeader('content-disposition', 'inline');
  else res.setHeader('content-security-policy', API_CSP);
  await new Promise<void>((resolve, reject) => {
    res.once('close', resolve);
    streamFile(req, res, path.join(opts.root, key), {}, (err) => (err.status === 404 ? refuse(res, 404, 'Not found') : reject(err)));
  });
}
