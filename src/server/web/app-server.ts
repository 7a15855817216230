import { answering } from '../after-answer';
import http from 'node:http';
import type net from 'node:net';
import { randomBytes } from 'node:crypto';
import { HttpError, inDatabaseOutage } from '../http';
import { log } from '../log';
import { trackInFlight } from '../in-flight';
import { defaultConnectionLimits, limitConnections, type ConnectionLimits } from '../connection-limits';
import { answerDocumentUpload, documentUploadToken } from './document-upload';
import { isPublicRead, type PublicApiCache } from './public-api-cache';
import { sendJson, setAll, single } from './respond';
import { API_CSP, baseSecurityHeaders, htmlCsp } from '../security-headers';
import { UPLOADS_PREFIX, serveUpload, type UploadGuard } from './uploads';
import { fromTrustedProxy, proxyRanges, type ProxyRange } from '../trusted-proxies';
import { lookup, sendStatic, type HeldAnswer, type StaticFile, type StaticMap } from './static-site';
import { SESSION_COOKIE } from '../auth/cookies';
import type { ViewRequest } from '../services/visits';
import { GENERATED_STATEMENT_PATH } from '#shared/documents.ts';

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
  /**
   * TRUST_PROXY: the proxies (`true`: one on this machine) whose connections may bring
   * X-Forwarded-* headers to Astro (its clientAddress reads them) and whose
   * `X-Forwarded-Proto: https` marks a request as https (HSTS). From any other peer those headers
   * are dropped. The server itself speaks plain HTTP: TLS ends at the proxy.
   */
  trustProxy?: boolean | readonly ProxyRange[];
  /**
   * ACCESS_LOG: also log plain static requests (pages, assets), which are otherwise not logged;
   * every other request always gets one JSON line.
   */
  accessLog?: boolean;
  /** What every route gets of the engine (its publish request, its live site) in `Astro.locals` (publish/live-site.ts `EngineLocals`). */
  engine?: object;
  /** Visitors' reads of the public endpoints answered from memory (public-api-cache.ts); absent: all through Astro. */
  publicApi?: PublicApiCache;
  /**
   * Counts a visitor's view of a page, of the capability statement or of a document (services/visits.ts
   * `countView`, which decides whether it counts); absent: nothing is counted.
   */
  countView?: (view: ViewRequest) => void;
  /** Open-connection caps (connection-limits.ts); by default from the open-file limit. */
  connectionLimits?: ConnectionLimits;
  /**
   * Local uploads (DATA_DIR/uploads) are served at /uploads/<key> (uploads.ts); absent means
   * /uploads/ is left to Astro (its 404), as when files live in Vercel Blob.
   */
  uploads?: {
    root: string;
    /** May veto a key (a document that is not active); false answers 404. */
    guard?: UploadGuard;
  };
}

/** A proxy's request id is kept when it is a plain token (it ties our line to the proxy's). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,100}$/;

/**
 * Gives the request an id (the trusted proxy's X-Request-Id, or a new one), returns it in the
 * answer, hands it to Astro's error log, and logs one JSON line when the answer is done: method,
 * path (never the query string, which can carry personal data), status and duration.
 */
function trackRequest(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, trustProxy: boolean): void {
  const forwarded = trustProxy ? single(req.headers['x-request-id']) : undefined;
  const id = forwarded && REQUEST_ID.test(forwarded) ? forwarded : randomBytes(8).toString('hex');
  req.headers['x-request-id'] = id;
  res.setHeader('x-request-id', id);
  const started = performance.now();
  res.once('finish', () => {
    const fields = { id, method: req.method, path: pathname, status: res.statusCode, ms: Math.round(performance.now() - started) };
    // In a database outage its two lines say it all (http.ts); each refused request is an info line.
    if (res.statusCode >= 500 && !(res.statusCode === 503 && inDatabaseOutage())) log.warn('request', fields);
    else log.info('request', fields);
  });
}

/** `/404`, `/insights/404.html`…: not-found pages are served only as answers, with status 404. */
const NOT_FOUND_PAGE = /\/404(?:\.html)?\/*$/;

/** The request target without its query string. */
function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

/** The release's file for this path, if it is one (a not-found page is not, when asked for). */
function staticFileFor(map: StaticMap, pathname: string): StaticFile | undefined {
  if (pathname.includes('404') && NOT_FOUND_PAGE.test(pathname)) return undefined;
  // Exact keys are real files of the release (never under /api), so they need no checks.
  return map.get(pathname) ?? (isApiPath(pathname) ? undefined : lookup(map, pathname));
}

/** A `.` or `..` segment, plain or percent-encoded: browsers resolve them, only raw clients send them. */
const hasDotSegment = (pathname: string) => /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i.test(pathname);

/**
 * Bodies are capped while they stream in: 1 MB for JSON calls, more only where files arrive. A
 * document's PDF never reaches this: it is streamed to storage with its own limit (document-upload.ts).
 */
const BODY_LIMITS: [prefix: string, bytes: number, message?: string][] = [
  // 5 MB images (SPEC 5) and their multipart framing; the image's own size is checked exactly later.
  ['/api/upload/', 6 * 1024 * 1024, 'File is too large. Maximum size is 5MB.'],
];
const DEFAULT_BODY_LIMIT = 1024 * 1024;
const TOO_LARGE = 'Request body is too large';

function bodyLimitFor(pathname: string): { bytes: number; message: string } {
  const found = BODY_LIMITS.find(([prefix]) => pathname.startsWith(prefix));
  return { bytes: found?.[1] ?? DEFAULT_BODY_LIMIT, message: found?.[2] ?? TOO_LARGE };
}

/** What is still read of a body after its answer was sent: at most this much, for at most this long. */
const UNREAD_BODY_BYTES = 64 * 1024;
const UNREAD_BODY_MS = 1_000;

/**
 * For a request with a body, answered before the body was read to its end (a 401, a 404, a 405 on a
 * page, a 413): node:http would read and drop the rest for as long as the client sends it (an
 * endless chunked body, for minutes). The answer says `Connection: close`, and the connection is
 * then closed as nginx's lingering close does (`lingeringClose`).
 */
function boundUnreadBody(req: http.IncomingMessage, res: http.ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (!req.complete) this.setHeader('connection', 'close');
    return writeHead.apply(this, args);
  } as typeof writeHead;
  // node:http ends a `Connection: close` exchange with destroySoon(): the socket is destroyed as
  // soon as the answer is flushed, which resets a connection that still has unread body bytes.
  const socket = req.socket as net.Socket & { destroySoon?: () => void };
  const destroySoon = socket.destroySoon;
  socket.destroySoon = function (this: net.Socket) {
    if (req.complete || !destroySoon) return destroySoon?.call(this);
    lingeringClose(this);
  };
}

/**
 * Closes a connection whose request body was not read to its end, as nginx does: our FIN goes
 * right after the answer, then the rest of the body is read and dropped (at most 64 KB, then no
 * longer read) until the client closes its side, or for one second at most. Destroying at once
 * resets the connection, and a client that had not read the answer yet (a busy one, or Node's
 * fetch still sending its body) loses it: it gets ECONNRESET or EPIPE instead of the 401 or 413.
 */
function lingeringClose(socket: net.Socket): void {
  if (socket.writable) socket.end();
  let left = UNREAD_BODY_BYTES;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, UNREAD_BODY_MS).unref();
  socket.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) socket.pause();
  });
  socket.once('end', close);
  socket.once('close', () => clearTimeout(timer));
  socket.resume();
}

/** A request that carries a body (a length above 0, or chunked). */
const hasBody = (req: http.IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * The request body as Astro reads it, counted as it arrives: past `limit` the read fails with
 * 413 and the rest is never read (the connection closes after the answer), so an oversized or
 * endless chunked body costs no memory.
 */
async function* limitedBody(req: http.IncomingMessage, limit: { bytes: number; message: string }): AsyncGenerator<Buffer> {
  let received = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > limit.bytes) {
      throw new HttpError(413, limit.message);
    }
    yield chunk;
  }
}

const isApiPath = (pathname: string) => /^\/+api(\/|$)/i.test(pathname);

/** One request as the routes see it. */
interface Exchange {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  /** The request target without its query string. */
  pathname: string;
  /** Came over https through the trusted proxy (HSTS). */
  secure: boolean;
  /** The release's file for the path. */
  file: StaticFile | undefined;
  /** The kept answer to a public read (public-api-cache.ts), when there is one. */
  kept: HeldAnswer | undefined;
  /** A visitor's read of a public endpoint that may be answered from memory (public-api-cache.ts). */
  publicRead: boolean;
  /** The connection comes from a trusted proxy (its X-Forwarded-For names the client). */
  trusted: boolean;
}

/** The client's address: the last X-Forwarded-For hop when a trusted proxy sent it, else the socket's. */
function clientIpOf(req: http.IncomingMessage, trusted: boolean): string {
  const forwarded = trusted ? single(req.headers['x-forwarded-for']) : undefined;
  const last = forwarded
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .pop();
  return last ?? req.socket.remoteAddress ?? 'unknown';
}

/**
 * Where the shipped nginx config reports each page it served from disk (a `mirror` subrequest,
 * deploy/nginx/procurement-site.conf): the original request's headers, its target in
 * X-Original-URI. Heard only from a trusted proxy; the answer is an empty 204 at once.
 */
const VIEW_REPORT_PATH = '/.count-view';

/** The view as visits read it, of a request for `target` (the page's path and its query). */
function viewOf(req: http.IncomingMessage, target: string, trusted: boolean): ViewRequest {
  const q = target.indexOf('?');
  const cookie = single(req.headers.cookie);
  return {
    path: pathOf(target),
    query: q === -1 ? '' : target.slice(q + 1),
    ip: clientIpOf(req, trusted),
    headers: req.headers,
    signedIn: cookie !== undefined && SESSION_COOKIE.test(cookie),
  };
}

/**
 * A page view, a statement or a document download: what visits count (a GET, never HEAD nor an
 * asset), once answered, and only when something was found (a 200, or a 304 for a page seen before).
 * Called after the answer was started: a file held in memory has been sent by then.
 */
function counted(x: Exchange, isView: boolean, count: AppServerOptions['countView']): void {
  if (!count || x.req.method !== 'GET' || !isView) return;
  const done = () => {
    if (x.res.statusCode < 400) count(viewOf(x.req, x.req.url ?? '', x.trusted));
  };
  if (x.res.writableEnded) done();
  else x.res.once('finish', done);
}

const isPageFile = (file: StaticFile, pathname: string) => file.type.startsWith('text/html') || pathname === GENERATED_STATEMENT_PATH;

/**
 * A route answers the requests it matches; the first route that matches answers. `next` hands the
 * request to the routes after this one (a public read that could not be kept goes on to Astro).
 */
interface Route {
  name: string;
  matches: (x: Exchange) => boolean;
  answer: (x: Exchange, next: () => void) => void;
  /**
   * Answered by the app rather than from a file or a kept answer: the security headers and the CSP a dynamic
   * answer carries are set first (a page's CSP when it is not an API path nor a file of the release).
   */
  dynamic?: true;
}

const isRead = (method: string | undefined) => method === 'GET' || method === 'HEAD';

const FORWARDING_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded'];
/** Peers already warned about (at most a few lines in a log, whatever the traffic). */
const warnedPeers = new Set<string>();

/**
 * Whether the connection comes from a trusted proxy. From any other peer the forwarding headers
 * are whatever the client chose: dropped before anything reads them, so the client address is the
 * socket's and rate limits cannot be dodged. With proxies configured, the first few untrusted
 * peers that send them are logged once each (a proxy missing from TRUST_PROXY would otherwise put
 * every visitor behind it into one address's limits, unnoticed).
 */
function trustForwarding(req: http.IncomingMessage, proxies: readonly ProxyRange[]): boolean {
  const peer = req.socket.remoteAddress;
  if (fromTrustedProxy(proxies, peer)) return true;
  if (proxies.length > 0 && req.headers['x-forwarded-for'] !== undefined && peer && warnedPeers.size < 5 && !warnedPeers.has(peer)) {
    warnedPeers.add(peer);
    log.warn('X-Forwarded-For ignored: the peer is not a proxy TRUST_PROXY names (add its address if it is your proxy)', { peer });
  }
  for (const h of FORWARDING_HEADERS) delete req.headers[h];
  return false;
}

/** The routes of the server, in order; the last one (Astro) matches everything. */
function routes(opts: AppServerOptions): Route[] {
  /** The not-found answer: JSON for the API, else the section's not-found page (e.g. /insights/404.html) or the site's. */
  const notFound = ({ req, res, pathname, secure }: Exchange) => {
    if (res.headersSent) return res.end();
    if (isApiPath(pathname)) return sendJson(res, 404, { message: 'Not found' });
    const section = pathname.split('/')[1];
    const page = (section && opts.site().get(`/${section}/404.html`)) || opts.site().get('/404.html');
    if (page) return sendStatic(req, res, page, secure, 404);
    res.statusCode = 404;
    res.end('Not found');
  };

  return [
    {
      name: 'a page view the proxy served and reports',
      matches: ({ pathname, trusted }) => pathname === VIEW_REPORT_PATH && trusted,
      answer: ({ req, res }) => {
        const target = single(req.headers['x-original-uri']) ?? '';
        const file = target.startsWith('/') ? staticFileFor(opts.site(), pathOf(target)) : undefined;
        if (opts.countView && req.method === 'GET' && file && isPageFile(file, pathOf(target))) opts.countView(viewOf(req, target, true));
        res.statusCode = 204;
        res.end();
      },
    },
    {
      name: 'local uploads (/uploads/<key>)',
      matches: ({ pathname }) => opts.uploads !== undefined && pathname.startsWith(UPLOADS_PREFIX),
      answer: (x) => {
        const { req, res, pathname, secure } = x;
        serveUpload(req, res, pathname, { ...opts.uploads!, secure }).catch((err) => {
          log.error('upload read failed', { id: req.headers['x-request-id'], path: pathname, err });
          if (!res.headersSent) sendJson(res, 500, { message: 'Internal server error' });
          else res.destroy();
        });
        counted(x, pathname.endsWith('.pdf'), opts.countView);
      },
    },
    {
      name: 'a file of the release',
      matches: ({ req, file }) => file !== undefined && isRead(req.method),
      answer: (x) => {
        sendStatic(x.req, x.res, x.file!, x.secure);
        counted(x, isPageFile(x.file!, x.pathname), opts.countView);
      },
    },
    {
      name: 'a public read: its kept answer, or one made and kept now',
      matches: ({ publicRead }) => publicRead,
      answer: (x, next) => {
        if (x.kept) return sendStatic(x.req, x.res, x.kept, x.secure);
        // Made once per content change; if it cannot be kept (or making it failed), Astro answers.
        opts.publicApi!.fill(x.pathname).then(
          (made) => (made ? sendStatic(x.req, x.res, made, x.secure) : next()),
          (err) => {
            log.warn('public answer not kept', { id: x.req.headers['x-request-id'], path: x.pathname, err });
            next();
          },
        );
      },
    },
    {
      name: 'a file of the release, another method',
      matches: ({ file }) => file !== undefined,
      answer: ({ res }) => {
        res.setHeader('allow', 'GET, HEAD');
        sendJson(res, 405, { message: 'Method not allowed' });
      },
      dynamic: true,
    },
    {
      // Astro has no page for these: dot segments, the prerendered not-found pages themselves, `//x`.
      name: 'no page',
      matches: ({ pathname }) => hasDotSegment(pathname) || NOT_FOUND_PAGE.test(pathname) || pathname.startsWith('//'),
      answer: notFound,
      dynamic: true,
    },
    {
      // Streamed straight to storage, before Astro (document-upload.ts).
      name: 'a document upload',
      matches: ({ pathname }) => documentUploadToken(pathname) !== undefined,
      answer: ({ req, res, pathname, secure }) => {
        void answerDocumentUpload(req, documentUploadToken(pathname)!, secure).then(({ status, body, headers }) => {
          setAll(res, headers ?? {});
          sendJson(res, status, body);
        });
      },
      dynamic: true,
    },
    {
      name: 'Astro: pages rendered on demand and the API',
      matches: () => true,
      answer: (x) => answerWithAstro(opts, x, () => notFound(x)),
      dynamic: true,
    },
  ];
}

/** Astro's answer, with the body capped as it streams in (`BODY_LIMITS`). */
function answerWithAstro(opts: AppServerOptions, { req, res, pathname }: Exchange, notFound: () => void): void {
  if (!isRead(req.method)) {
    const limit = bodyLimitFor(pathname);
    if (Number(req.headers['content-length'] ?? 0) > limit.bytes) {
      res.setHeader('connection', 'close');
      return sendJson(res, 413, { message: limit.message });
    }
    // Astro builds its Request from `req.body` when it is an async iterable.
    (req as http.IncomingMessage & { body?: AsyncIterable<Buffer> }).body = limitedBody(req, limit);
  }
  // Whichever comes first ends the wait, and takes both listeners away again.
  const drained = () =>
    res.writableNeedDrain
      ? new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done).off('close', done);
            resolve();
          };
          res.on('drain', done).on('close', done);
        })
      : Promise.resolve();
  answering(res, () => opts.astro(req, res, notFound, { ...opts.engine, drained })).catch((err) => {
    log.error('request failed', { id: req.headers['x-request-id'], path: pathname, err });
    if (!res.headersSent) sendJson(res, 500, { message: 'Internal server error' });
    else res.end();
  });
}

/**
 * Exactly one Host header (RFC 9112 3.2: a request with several is answered 400): Node keeps the
 * first and drops the others, so a proxy that read another one would route it elsewhere.
 */
function oneHost(raw: readonly string[]): boolean {
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts++;
  return hosts <= 1;
}

/**
 * The HTTP server: the release's files (static-site.ts: precompressed copies, ETags; from memory
 * or through `send`), visitors' public reads from memory, everything else through Astro, unknown
 * pages the 404 page with status 404. Each request goes to the first of `routes` that matches it.
 */
export function createAppServer(opts: AppServerOptions): http.Server {
  const table = routes(opts);
  const proxies = proxyRanges(opts.trustProxy);

  function dispatch(x: Exchange, from: number): void {
    const at = table.findIndex((route, i) => i >= from && route.matches(x));
    const route = table[at]!;
    if (route.dynamic) {
      const csp = x.file || isApiPath(x.pathname) ? API_CSP : htmlCsp([]);
      setAll(x.res, { ...baseSecurityHeaders(x.secure), 'content-security-policy': csp });
    }
    route.answer(x, () => dispatch(x, at + 1));
  }

  const server = http.createServer((req, res) => {
    const target = req.url ?? '/';
    if (hasBody(req)) boundUnreadBody(req, res);
    // Only origin-form targets name a page or an endpoint: not `*` (OPTIONS *), not an absolute
    // URL, not a fragment (browsers never send one). `//x` is a path no page has.
    if (!target.startsWith('/') || target.includes('#') || !oneHost(req.rawHeaders)) {
      setAll(res, { ...baseSecurityHeaders(false), 'content-security-policy': API_CSP });
      return sendJson(res, 400, { message: 'Bad request' });
    }
    const pathname = pathOf(target);
    const trusted = trustForwarding(req, proxies);
    const secure = trusted && single(req.headers['x-forwarded-proto']) === 'https';
    const publicRead = opts.publicApi !== undefined && isPublicRead(req.method, pathname, single(req.headers.cookie));
    const file = staticFileFor(opts.site(), pathname);
    const kept = publicRead && !file ? opts.publicApi!.get(pathname) : undefined;
    // Plain static reads are logged only with the access log on.
    // So are the proxy's reports of the pages it served (it logs those itself).
    const quiet = ((file !== undefined || kept !== undefined) && isRead(req.method)) || (pathname === VIEW_REPORT_PATH && trusted);
    if (!quiet || opts.accessLog) trackRequest(req, res, pathname, trusted);
    dispatch({ req, res, pathname, secure, file, kept, publicRead, trusted }, 0);
  });

  trackInFlight(server);
  limitConnections(server, opts.connectionLimits ?? defaultConnectionLimits(proxies.length > 0));
  // Longer than the idle timeouts of common proxies and load balancers (60 s), and than a client's
  // own (Node's fetch: 4 s), so the client closes an idle connection first: when the server closes
  // it while a request is being sent on it, the client gets a reset (seen when the thread was busy
  // long enough for both timers to be due at once).
  server.keepAliveTimeout = 65_000;
  return server;
}
