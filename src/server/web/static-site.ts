import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import Negotiator from 'negotiator';
import send, { type SendOptions } from 'send';
import { log } from '../log';
import { sendJson, setAll } from './respond';
import { baseSecurityHeaders } from '../security-headers';

/*
 * The live release's files (decision 021): the fixed pages and assets held in memory, `fresh`
 * deciding their 304; the pages whose number grows with the content, and the uploads, streamed
 * from disk by `send` (conditional requests, ranges, HEAD). `negotiator` picks the encoding. Ours
 * are the security headers, the page's CSP and robots directives, the cache rules and the type.
 */

export type Encoding = 'br' | 'gzip';

/** Each representation of a file held in memory: its bytes and its entity tag. */
export type Held = Partial<Record<Encoding | 'identity', { bytes: Buffer; etag: string }>>;

/** What is answered with a file: its representations, type, cache rules and, for a page, CSP and robots. */
interface Answerable {
  /** Its compressed copies (`.br`, `.gz` beside it on disk), best first. */
  encodings: readonly Encoding[];
  /** Its type, by its name (mime-types). */
  type: string;
  cacheControl: string;
  csp?: string;
  /** A page's own `<meta name="robots">` (`noindex` until the site is launched), sent as X-Robots-Tag. */
  robots?: string;
  /** Its bytes, when they are held in memory. */
  held?: Held;
}

/** An answer held in memory (a visitor's public API read, public-api-cache.ts). */
export type HeldAnswer = Answerable & { held: Held };

/** A file of the release as it is served (publish/release-files.ts makes these). */
export interface StaticFile extends Answerable {
  /** Where the file is on disk now (a page a publish keeps is served from the live release until it is linked). */
  path: string;
}

/** A body held in memory with its entity tag: a hash of its bytes. */
export const heldBody = (bytes: Buffer) => ({ bytes, etag: `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"` });

/** URL path → file: `/about.html`, and its clean URL `/about` (`/` for `/index.html`). */
export type StaticMap = Map<string, StaticFile>;

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** negotiator 1's `encoding` with its `preferred` order for equal weights (@types/negotiator describes 0.6). */
type Preferring = { encoding(available: string[], options: { preferred: string[] }): string | undefined };

/** The encoding a client gets: the best of the file's copies it accepts (`negotiator`), else the file itself. */
function encodingFor(req: IncomingMessage, offered: readonly Encoding[]): Encoding | undefined {
  if (offered.length === 0 || !req.headers['accept-encoding']) return undefined;
  const chosen = (new Negotiator(req) as unknown as Preferring).encoding([...offered, 'identity'], { preferred: [...offered] });
  return chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
}

/** A path as `send` takes it: percent-encoded (it decodes it). */
const encoded = (file: string) => file.split('/').map(encodeURIComponent).join('/');

/** The security headers over plain http and over https (worked out once: they are the same for every file). */
const SECURITY = [baseSecurityHeaders(false), baseSecurityHeaders(true)] as const;

/** The headers that describe a file, taken away when it is not sent. */
const DESCRIBING = ['content-type', 'content-encoding', 'content-disposition', 'cache-control', 'etag', 'last-modified'];

/** What `send` answers with when it does not send the file: its status, and the headers of a 416. */
type SendError = { status?: number; headers?: Record<string, string> };

/**
 * Streams `file` (a path on disk) with `send`, after the headers of ours are set. A precondition
 * that fails (412) or a range past the end (416) is answered as `send` decides; a file that is
 * missing or cannot be read is left to `failed`, with the headers that described it taken away.
 */
export function streamFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  options: SendOptions,
  failed: (err: SendError) => void,
) {
  send(req, encoded(file), { dotfiles: 'allow', index: false, cacheControl: false, ...options })
    .on('error', (err: SendError) => {
      if (res.headersSent) return void res.destroy();
      for (const name of DESCRIBING) res.removeHeader(name);
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
 * Answers with a file of the release, or an answer kept in memory (`status` 404 for a not-found
 * page: then never cached, no 304 and no range). A held file is answered from memory (`fresh`
 * decides the 304; a Range is ignored, as a server may); any other is streamed by `send`. A file
 * that cannot be read (a release removed by hand) is a 500.
 */
export function sendStatic(req: IncomingMessage, res: ServerResponse, file: StaticFile | HeldAnswer, secure: boolean, status = 200): void {
  const encoding = encodingFor(req, file.encodings);
  setAll(res, SECURITY[secure ? 1 : 0]);
  res.setHeader('vary', 'Accept-Encoding');
  if (file.csp) res.setHeader('content-security-policy', file.csp);
  if (file.robots) res.setHeader('x-robots-tag', file.robots);
  const found = status === 200;
  res.setHeader('cache-control', found ? file.cacheControl : 'no-store');
  res.statusCode = status;
  const body = file.held?.[encoding ?? 'identity'];
  if (body && found) res.setHeader('etag', body.etag);
  if (body && found && fresh(req.headers, { etag: body.etag })) {
    res.statusCode = 304;
    return void res.end();
  }
  res.setHeader('content-type', file.type);
  if (encoding) res.setHeader('content-encoding', encoding);
  if (body) {
    res.setHeader('content-length', body.bytes.length);
    return void res.end(req.method === 'HEAD' ? undefined : body.bytes);
  }
  const path = (file as StaticFile).path;
  streamFile(req, res, path + (encoding ? SUFFIX[encoding] : ''), found ? {} : NOT_FOUND_PAGE, (err) => {
    log.error('release file unreadable', { id: req.headers['x-request-id'], path, err });
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
