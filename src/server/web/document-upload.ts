import type http from 'node:http';
import { PassThrough } from 'node:stream';
import { requireAdmin } from '../auth/guard';
import { getDb } from '../db/client';
import { HttpError, errorResponse } from '../http';
import { DOCUMENT_UPLOAD_PATH, receiveDocumentUpload } from '../services/documents';
import { crossSiteRefusal, isCrossSite } from '../auth/csrf';

/*
 * PUT {uploadURL} (SPEC 7), served here in the HTTP layer rather than by an Astro endpoint: Astro
 * turns the body into a web stream and copies every chunk, which cost several times the buffer
 * memory of piping the request into the file (measured with a large upload). Here the
 * request is piped into storage with backpressure, so memory stays flat whatever the file size.
 *
 * The link is a capability (single use, 15 minutes, 256 random bits), and the request must still
 * carry the session of the administrator who asked for it: a link that leaks (history, logs, a
 * proxy) is useless to anyone else, and a session that ended or lost its role stops its uploads.
 * The browser sends the cookie anyway (SPEC 7: every call includes session credentials).
 */

export interface UploadAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The token segment when `pathname` is a document upload URL, else undefined. */
export function documentUploadToken(pathname: string): string | undefined {
  return pathname.startsWith(DOCUMENT_UPLOAD_PATH) ? pathname.slice(DOCUMENT_UPLOAD_PATH.length) : undefined;
}

/** The request's headers as a web `Request`, without the body (for the session and CSRF checks). */
function headersOnly(req: http.IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(url, { method: 'GET', headers });
}

async function adminOf(req: http.IncomingMessage, url: URL) {
  const request = headersOnly(req, url);
  if (isCrossSite(new Request(request, { method: 'PUT' }), url)) throw new HttpError(403, crossSiteRefusal());
  // Loaded on the first upload: the sign-in library is not needed by the rest of this layer.
  const { readSession } = await import('../auth/session');
  const found = await readSession(await getDb(), request);
  return requireAdmin({ user: found.state === 'valid' ? found.user : null });
}

/** Streams the PUT body of a document upload to storage; resolves with the answer to send. */
export async function answerDocumentUpload(req: http.IncomingMessage, token: string, secure: boolean): Promise<UploadAnswer> {
  const url = new URL(req.url ?? '/', `${secure ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`);
  try {
    if (req.method !== 'PUT') throw new HttpError(405, 'Method not allowed', { allow: 'PUT' });
    const admin = await adminOf(req, url);
    const declared = req.headers['content-length'];
    // `pipe` pauses the request while storage is behind, and never destroys it: when the upload
    // is refused half-way the answer can still be sent on the same connection.
    const body = new PassThrough();
    req.pipe(body);
    req.once('close', () => {
      if (!req.complete) body.destroy(new HttpError(400, 'The upload was interrupted'));
    });
    const result = await receiveDocumentUpload(await getDb(), token, body, {
      userId: admin.id,
      contentLength: declared === undefined ? undefined : Number(declared),
    });
    return { status: 200, body: result };
  } catch (err) {
    req.unpipe();
    const id = req.headers['x-request-id'];
    const res = errorResponse(err, url.pathname, typeof id === 'string' ? id : undefined);
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (name !== 'content-type' && name !== 'cache-control') headers[name] = value;
    });
    return { status: res.status, body: await res.json(), headers };
  }
}
