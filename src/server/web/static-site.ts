import type http from 'node:http';
import Negotiator from 'negotiator';
import send from 'send';
import { log } from '../log';
import { sendJson, setAll } from './respond';
import { baseSecurityHeaders } from '../security-headers';

/*
 * The live release's files, served by `send` (decision 021): it reads the file, and answers
 * conditional requests (ETag, Last-Modified), ranges and HEAD. The encoding is chosen by
 * `negotiator` among the compressed copies beside the file. What is ours is set before: the
 * security headers, the page's own CSP and robots directives, the cache rules and the type.
 */

export type Encoding = 'br' | 'gzip';

/** A file of the release as it is served (publish/release-files.ts makes these). */
export interface StaticFile {
  /** Where the file is on disk now (a page a publish keeps is served from the live release until it is linked). */
  path: string;
  /** Its compressed copies beside it (`.br`, `.gz`), best first. */
  encodings: readonly Encoding[];
  /** Its type, by its name (mime-types). */
  type: string;
  cacheControl: string;
  csp?: string;
  /** A page's own `<meta name="robots">` (`noindex` until the site is launched), sent as X-Robots-Tag. */
  robots?: string;
}

/** URL path → file: `/about.html`, and its clean URL `/about` (`/` for `/index.html`). */
export type StaticMap = Map<string, StaticFile>;

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** negotiator 1's `encoding` with its `preferred` order for equal weights (@types/negotiator describes 0.6). */
type Preferring = { encoding(available: string[], options: { preferred: string[] }): string | undefined };

/** The encoding a client gets: the best of the file's copies it accepts (`negotiator`), else the file itself. */
export function encodingFor(req: http.IncomingMessage, offered: readonly Encoding[]): Encoding | undefined {
  if (offered.length === 0 || !req.headers['accept-encoding']) return undefined;
  const chosen = (new Negotiator(req) as unknown as Preferring).encoding([...offered, 'identity'], { preferred: [...offered] });
  return chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
}

/** A path as `send` takes it: percent-encoded (it decodes it). */
const encoded = (file: string) => file.split('/').map(encodeURIComponent).join('/');

/** The security headers over plain http and over https (worked out once: they are the same for every file). */
const SECURITY = [baseSecurityHeaders(false), baseSecurityHeaders(true)] as const;

/** The headers of ours a file's answer carries, before `send` adds its own. */
function setOurHeaders(res: http.ServerResponse, file: StaticFile, secure: boolean, encoding: Encoding | undefined): void {
  setAll(res, SECURITY[secure ? 1 : 0]);
  res.setHeader('content-type', file.type);
  res.setHeader('vary', 'Accept-Encoding');
  if (file.csp) res.setHeader('content-security-policy', file.csp);
  if (file.robots) res.setHeader('x-robots-tag', file.robots);
  if (encoding) res.setHeader('content-encoding', encoding);
}

/** What `send` answers with when it does not send the file: its status, and the headers of a 416. */
type SendError = { status?: number; headers?: Record<string, string> };

/**
 * Streams `file` (a path on disk) with `send`, after the headers of ours are set. A precondition
 * that fails (412) or a range past the end (416) is answered as `send` decides; a file that is
 * missing or cannot be read is left to `failed`, with the headers that described it taken away.
 */
export function streamFile(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  file: string,
  options: send.SendOptions,
  failed: (err: SendError) => void,
): void {
  send(req, encoded(file), { dotfiles: 'allow', index: false, cacheControl: false, ...options })
    .on('error', (err: SendError) => {
      if (res.headersSent) return void res.destroy();
      for (const name of ['content-type', 'content-encoding', 'content-disposition', 'cache-control', 'etag', 'last-modified']) {
        res.removeHeader(name);
      }
      if (err.status !== 412 && err.status !== 416) return failed(err);
      res.statusCode = err.status;
      setAll(res, err.headers ?? {});
      res.end();
    })
    .pipe(res);
}

/** A not-found page is an answer, not a file: no validators, no ranges. */
const NOT_FOUND_PAGE = { etag: false, lastModified: false, acceptRanges: false } as const;

/**
 * Streams a file of the release (`status` 404 for a not-found page: then never cached, no 304 and
 * no range). A file that cannot be read (a release removed by hand) is a 500.
 */
export function sendStatic(req: http.IncomingMessage, res: http.ServerResponse, file: StaticFile, secure: boolean, status = 200): void {
  const encoding = encodingFor(req, file.encodings);
  setOurHeaders(res, file, secure, encoding);
  const found = status === 200;
  res.setHeader('cache-control', found ? file.cacheControl : 'no-store');
  res.statusCode = status;
  streamFile(req, res, file.path + (encoding ? SUFFIX[encoding] : ''), found ? {} : NOT_FOUND_PAGE, (err) => {
    log.error('release file unreadable', { id: req.headers['x-request-id'], path: file.path, err });
    sendJson(res, 500, { message: 'Internal server error' });
  });
}

/** The file for a request path: exact file, `{path}.html`, or `{path}/index.html`. */
export function lookup(map: StaticMap, pathname: string): StaticFile | undefined {
  let p: string;
  try {
    p = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (p.includes('\0') || p.includes('..')) return undefined;
  if (p.length > 1 && p.endsWith('/')) p = p.replace(/\/+$/, '');
  if (p === '/' || p === '') return map.get('/index.html');
  return map.get(p) ?? map.get(`${p}.html`) ?? map.get(`${p}/index.html`);
}
