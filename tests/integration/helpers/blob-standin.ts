import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Vercel Blob API, enough for what @vercel/blob's `put` and `del` send:
 * `PUT <api>/?pathname=<p>` with the bytes as body (headers x-content-type, x-add-random-suffix,
 * x-allow-overwrite, authorization: Bearer <token>) answering the blob's JSON, and
 * `POST <api>/delete` with `{ urls }` (URLs or pathnames). Blobs live in memory and are served at
 * their public URL, `<base>/<pathname>`. Point the package at it with VERCEL_BLOB_API_URL.
 */
export interface BlobStandin {
  /** Where the blobs are served: a blob's URL is `${publicBase}/${pathname}`. */
  publicBase: string;
  /** The value for VERCEL_BLOB_API_URL. */
  apiUrl: string;
  /** A read-write token the stand-in accepts (`vercel_blob_rw_<store>_<secret>`). */
  token: string;
  blobs: Map<string, { body: Buffer; contentType: string; cacheControl: string }>;
  close(): Promise<void>;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startBlobStandin(): Promise<BlobStandin> {
  const token = 'vercel_blob_rw_standinstore_secret0123456789';
  const blobs: BlobStandin['blobs'] = new Map();
  let base = '';

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      if (url.pathname.startsWith('/api/blob')) {
        if (req.headers.authorization !== `Bearer ${token}`) {
          return sendJson(res, 403, { error: { code: 'forbidden', message: 'Access denied' } });
        }
        const route = url.pathname.slice('/api/blob'.length);
        if (req.method === 'PUT' && (route === '' || route === '/')) {
          const pathname = url.searchParams.get('pathname') ?? '';
          if (!pathname || pathname.includes('//')) return sendJson(res, 400, { error: { code: 'bad_request', message: 'bad pathname' } });
          if (req.headers['x-add-random-suffix'] !== '0') {
            return sendJson(res, 400, { error: { code: 'bad_request', message: 'the driver must not add a random suffix' } });
          }
          if (blobs.has(pathname) && req.headers['x-allow-overwrite'] !== '1') {
            return sendJson(res, 400, { error: { code: 'bad_request', message: 'This blob already exists' } });
          }
          const body = await readBody(req);
          const contentType = String(req.headers['x-content-type'] ?? 'application/octet-stream');
          const maxAge = String(req.headers['x-cache-control-max-age'] ?? '2592000');
          blobs.set(pathname, { body, contentType, cacheControl: `public, max-age=${maxAge}` });
          const blobUrl = `${base}/${pathname}`;
          return sendJson(res, 200, {
            url: blobUrl,
            downloadUrl: `${blobUrl}?download=1`,
            pathname,
            contentType,
            contentDisposition: `inline; filename="${pathname.split('/').pop()}"`,
            etag: `"${body.length}"`,
          });
        }
        if (req.method === 'POST' && route === '/delete') {
          const { urls } = JSON.parse((await readBody(req)).toString('utf8')) as { urls: string[] };
          for (const u of urls) blobs.delete(u.startsWith(`${base}/`) ? u.slice(base.length + 1) : u);
          return sendJson(res, 200, {});
        }
        return sendJson(res, 404, { error: { code: 'not_found', message: 'Not found' } });
      }
      const blob = blobs.get(decodeURIComponent(url.pathname.slice(1)));
      if (!blob || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200, { 'content-type': blob.contentType, 'content-length': blob.body.length, 'cache-control': blob.cacheControl });
      res.end(req.method === 'HEAD' ? undefined : blob.body);
    })().catch((err: unknown) => sendJson(res, 500, { error: { code: 'unknown_error', message: String(err) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    publicBase: base,
    apiUrl: `${base}/api/blob`,
    token,
    blobs,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
