import http from 'node:http';
import { API_CSP, baseSecurityHeaders, htmlCsp } from './security-headers';
import { lookup, type StaticFile, type StaticMap } from './static-site';

export type AstroHandler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  next?: (err?: unknown) => void,
  locals?: object,
) => Promise<void>;

export interface AppServerOptions {
  astro: AstroHandler;
  /** The live release's files; read per request so a swap takes effect atomically. */
  site: () => StaticMap;
  /** Whether requests arrive over https (behind a TLS proxy). */
  isHttps: (req: http.IncomingMessage) => boolean;
}

function pickEncoding(req: http.IncomingMessage, file: StaticFile): 'br' | 'gzip' | undefined {
  const accept = String(req.headers['accept-encoding'] ?? '');
  if (file.br && /\bbr\b/.test(accept)) return 'br';
  if (file.gz && /\bgzip\b/.test(accept)) return 'gzip';
  return undefined;
}

function sendStatic(req: http.IncomingMessage, res: http.ServerResponse, file: StaticFile, status = 200): void {
  res.setHeader('content-type', file.type);
  res.setHeader('cache-control', status === 200 ? file.cacheControl : 'no-store');
  res.setHeader('vary', 'Accept-Encoding');
  if (file.csp) res.setHeader('content-security-policy', file.csp);
  if (status === 200) {
    res.setHeader('etag', file.etag);
    if (req.headers['if-none-match'] === file.etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
  }
  const encoding = pickEncoding(req, file);
  const body = encoding === 'br' ? file.br! : encoding === 'gzip' ? file.gz! : file.body;
  if (encoding) res.setHeader('content-encoding', encoding);
  res.setHeader('content-length', body.length);
  res.statusCode = status;
  res.end(req.method === 'HEAD' ? undefined : body);
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

function isApiPath(pathname: string): boolean {
  return /^\/+api(\/|$)/i.test(pathname);
}

/**
 * The HTTP server: prerendered pages straight from memory (precompressed, ETag, immutable
 * assets), everything else through Astro, unknown pages the 404 page with status 404.
 */
export function createAppServer(opts: AppServerOptions): http.Server {
  return http.createServer((req, res) => {
    const url = req.url ?? '/';
    const pathname = url.split('?')[0] ?? '/';
    const secure = opts.isHttps(req);
    for (const [k, v] of Object.entries(baseSecurityHeaders(secure))) res.setHeader(k, v);

    if ((req.method === 'GET' || req.method === 'HEAD') && !isApiPath(pathname)) {
      const file = lookup(opts.site(), pathname);
      if (file) return sendStatic(req, res, file);
    }

    res.setHeader('content-security-policy', isApiPath(pathname) ? API_CSP : htmlCsp([]));
    const notFound = () => {
      if (res.headersSent) return res.end();
      if (isApiPath(pathname)) return sendJson(res, 404, { message: 'Not found' });
      // A section may have its own not-found page (e.g. /insights/404.html: 'Insight Not Found').
      const section = pathname.split('/')[1];
      const page = (section && opts.site().get(`/${section}/404.html`)) || opts.site().get('/404.html');
      if (page) return sendStatic(req, res, page, 404);
      res.statusCode = 404;
      res.end('Not found');
    };
    opts.astro(req, res, notFound).catch((err) => {
      console.error('request failed', err);
      if (!res.headersSent) sendJson(res, 500, { message: 'Internal server error' });
      else res.end();
    });
  });
}
