import http from 'node:http';
import { API_CSP, baseSecurityHeaders, htmlCsp } from './security-headers';
import { lookup, type Encoding, type StaticFile, type StaticMap } from './static-site';

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
  /** TRUST_PROXY: only then may X-Forwarded-* headers reach Astro (its clientAddress reads them). */
  trustProxy?: boolean;
}

function pickEncoding(req: http.IncomingMessage, file: StaticFile): Encoding {
  const accept = req.headers['accept-encoding'];
  if (!accept) return 'identity';
  if (file.br && /\bbr\b/.test(accept)) return 'br';
  if (file.gz && /\bgzip\b/.test(accept)) return 'gzip';
  return 'identity';
}

/** The hot path: one `writeHead` with headers computed when the release was loaded. */
function sendStatic(req: http.IncomingMessage, res: http.ServerResponse, file: StaticFile, secure: boolean): void {
  if (req.headers['if-none-match'] === file.etag) {
    res.writeHead(304, { etag: file.etag, 'cache-control': file.cacheControl, vary: 'Accept-Encoding' });
    res.end();
    return;
  }
  const encoding = pickEncoding(req, file);
  res.writeHead(200, file.raw[encoding]![secure ? 1 : 0]);
  if (req.method === 'HEAD') res.end();
  else res.end(encoding === 'br' ? file.br : encoding === 'gzip' ? file.gz : file.body);
}

/** A not-found page: the 404 status, never cached. */
function sendNotFoundPage(req: http.IncomingMessage, res: http.ServerResponse, file: StaticFile): void {
  const encoding = pickEncoding(req, file);
  const body = encoding === 'br' ? file.br! : encoding === 'gzip' ? file.gz! : file.body;
  res.setHeader('content-type', file.type);
  res.setHeader('cache-control', 'no-store');
  res.setHeader('vary', 'Accept-Encoding');
  if (file.csp) res.setHeader('content-security-policy', file.csp);
  if (encoding !== 'identity') res.setHeader('content-encoding', encoding);
  res.setHeader('content-length', body.length);
  res.statusCode = 404;
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
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    const secure = opts.isHttps(req);

    if (req.method === 'GET' || req.method === 'HEAD') {
      // Exact keys are real files of the release (never under /api), so they need no checks.
      const map = opts.site();
      const file = map.get(pathname) ?? (isApiPath(pathname) ? undefined : lookup(map, pathname));
      if (file) return sendStatic(req, res, file, secure);
    }

    for (const [k, v] of Object.entries(baseSecurityHeaders(secure))) res.setHeader(k, v);
    res.setHeader('content-security-policy', isApiPath(pathname) ? API_CSP : htmlCsp([]));
    const notFound = () => {
      if (res.headersSent) return res.end();
      if (isApiPath(pathname)) return sendJson(res, 404, { message: 'Not found' });
      // A section may have its own not-found page (e.g. /insights/404.html: 'Insight Not Found').
      const section = pathname.split('/')[1];
      const page = (section && opts.site().get(`/${section}/404.html`)) || opts.site().get('/404.html');
      if (page) return sendNotFoundPage(req, res, page);
      res.statusCode = 404;
      res.end('Not found');
    };
    if (!opts.trustProxy) {
      // Without a trusted proxy these headers are whatever the client chose: drop them so the
      // client address is the socket's and rate limits cannot be dodged.
      for (const h of ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded']) {
        delete req.headers[h];
      }
    }
    opts.astro(req, res, notFound).catch((err) => {
      console.error('request failed', err);
      if (!res.headersSent) sendJson(res, 500, { message: 'Internal server error' });
      else res.end();
    });
  });
}
