import { SESSION_COOKIE } from '../auth/cookies';
import { compressedCopies } from '../compression';
import { API_CSP } from '../security-headers';
import { heldBody, type HeldAnswer } from './static-site';

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

/** An answer kept in memory: its body and the compressed copies of a large one, each with its entity tag. */
async function keptAnswer(body: Buffer, type: string, cacheControl: string): Promise<HeldAnswer> {
  // Compressed quickly (brotli 5: a few milliseconds on the first request after a change).
  const copies = await compressedCopies(body, 5, 6);
  const held = { identity: heldBody(body), ...(copies && { br: heldBody(copies.br), gzip: heldBody(copies.gz) }) };
  return { held, encodings: copies ? ['br', 'gzip'] : [], type, cacheControl, csp: API_CSP };
}

export interface PublicApiCache {
  /** The kept answer for the path, if it was made in the current content generation. */
  get(pathname: string): HeldAnswer | undefined;
  /**
   * Makes the answer (one at a time per path and generation: a crowd after a publish waits for
   * one) and keeps it; undefined when it is not one to keep (Astro then answers the request).
   */
  fill(pathname: string): Promise<HeldAnswer | undefined>;
}

/** `contentGeneration`: the engine's content generation (publish/live-site.ts), read at each request. */
export function createPublicApiCache(answer: AnswerAnonymously, contentGeneration: () => number): PublicApiCache {
  const kept = new Map<string, { generation: number; file: HeldAnswer }>();
  const making = new Map<string, { generation: number; promise: Promise<HeldAnswer | undefined> }>();

  const make = async (pathname: string, generation: number): Promise<HeldAnswer | undefined> => {
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
