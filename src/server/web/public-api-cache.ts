import { createHash } from 'node:crypto';
import type http from 'node:http';
import fresh from 'fresh';
import { SESSION_COOKIE } from '../auth/cookies';
import { compressedCopies } from '../compression';
import { setAll, single } from './respond';
import { API_CSP, baseSecurityHeaders } from '../security-headers';
import { encodingFor, type Encoding } from './static-site';

/*
 * The public GET endpoints of the /api contract (SPEC 7) change only with the content, so a
 * visitor's answer is made once per content change and then served from memory like a page of
 * the release: precompressed, with an entity tag and 304s, without Astro or the database. An
 * answer is kept while the content generation (publish/live-site.ts `LiveSite.generation`) is the one it was made in:
 * a write on this instance makes it again at once, another instance's publish when this one
 * follows it (as its pages). Requests with a session cookie (an administrator sees inactive rows
 * too) always go through Astro, and so does anything that is not a 200 without cookies.
 */

const PUBLIC_READS =
  /^\/api\/(?:insights|services|features|about-features|federal-features|past-performance|documents|contact-info\/active|documents\/public\/(?:capability|onboarding)|content\/[a-z][a-z_-]{0,39}\/active)$/;

/** Whether this request is a visitor's read of a public endpoint (one the cache may answer). */
export function isPublicRead(method: string | undefined, pathname: string, cookie: string | undefined): boolean {
  return (method === 'GET' || method === 'HEAD') && PUBLIC_READS.test(pathname) && !(cookie && SESSION_COOKIE.test(cookie));
}

/** How an answer is made: the endpoint's own answer to an anonymous GET of the path. */
export type AnswerAnonymously = (pathname: string) => Promise<Response>;

/** An answer kept in memory: its body, the compressed copies of a large one, an entity tag for each. */
export interface KeptAnswer {
  bodies: Partial<Record<Encoding | 'identity', { bytes: Buffer; etag: string }>>;
  type: string;
  cacheControl: string;
}

const tagged = (bytes: Buffer) => ({ bytes, etag: `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"` });

async function keptAnswer(body: Buffer, type: string, cacheControl: string): Promise<KeptAnswer> {
  // Compressed quickly (brotli 5: a few milliseconds on the first request after a change).
  const copies = await compressedCopies(body, 5, 6);
  const bodies = { identity: tagged(body), ...(copies && { br: tagged(copies.br), gzip: tagged(copies.gz) }) };
  return { bodies, type, cacheControl };
}

/** A kept answer in the encoding the client takes, or 304 when its copy is current (`fresh`). */
export function sendKept(req: http.IncomingMessage, res: http.ServerResponse, answer: KeptAnswer, secure: boolean): void {
  const encoding = encodingFor(req, answer.bodies.br ? ['br', 'gzip'] : []);
  const { bytes, etag } = answer.bodies[encoding ?? 'identity']!;
  const headers = { 'content-security-policy': API_CSP, 'cache-control': answer.cacheControl, vary: 'Accept-Encoding', etag };
  setAll(res, { ...baseSecurityHeaders(secure), ...headers });
  // Only If-None-Match is compared (as conditional.ts does): a request's `Cache-Control: no-cache` is about caches.
  if (fresh({ 'if-none-match': single(req.headers['if-none-match']) }, { etag })) {
    res.statusCode = 304;
    return void res.end();
  }
  setAll(res, { 'content-type': answer.type, 'content-length': String(bytes.length), ...(encoding && { 'content-encoding': encoding }) });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

export interface PublicApiCache {
  /** The kept answer for the path, if it was made in the current content generation. */
  get(pathname: string): KeptAnswer | undefined;
  /**
   * Makes the answer (one at a time per path and generation: a crowd after a publish waits for
   * one) and keeps it; undefined when it is not one to keep (Astro then answers the request).
   */
  fill(pathname: string): Promise<KeptAnswer | undefined>;
}

/** `contentGeneration`: the engine's content generation (publish/live-site.ts), read at each request. */
export function createPublicApiCache(answer: AnswerAnonymously, contentGeneration: () => number): PublicApiCache {
  const kept = new Map<string, { generation: number; file: KeptAnswer }>();
  const making = new Map<string, { generation: number; promise: Promise<KeptAnswer | undefined> }>();

  const make = async (pathname: string, generation: number): Promise<KeptAnswer | undefined> => {
    const res = await answer(pathname);
    if (res.status !== 200 || res.headers.has('set-cookie')) {
      await res.body?.cancel();
      return undefined;
    }
    const body = Buffer.from(await res.arrayBuffer());
    const cacheControl = res.headers.get('cache-control');
    const file = await keptAnswer(
      body,
      res.headers.get('content-type') ?? 'application/json; charset=utf-8',
      // Browsers keep it and ask again each time (a 304 while nothing changed).
      !cacheControl || cacheControl === 'no-store' ? 'no-cache' : cacheControl,
    );
    // Made from content that changed meanwhile: good for the requests that were waiting, not kept.
    if (contentGeneration() === generation) kept.set(pathname, { generation, file });
    return file;
  };

  return {
    get(pathname) {
      const entry = kept.get(pathname);
      return entry && entry.generation === contentGeneration() ? entry.file : undefined;
    },
    fill(pathname) {
      const generation = contentGeneration();
      const pending = making.get(pathname);
      if (pending?.generation === generation) return pending.promise;
      const promise = make(pathname, generation).finally(() => {
        if (making.get(pathname)?.promise === promise) making.delete(pathname);
      });
      making.set(pathname, { generation, promise });
      return promise;
    },
  };
}
