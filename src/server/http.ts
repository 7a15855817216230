import type { APIContext, APIRoute } from 'astro';
import { z } from 'zod';
import { log } from './log';

const HTTP_ERROR = Symbol.for('procurement.http-error');

/**
 * The one error type services throw; `defineHandler` turns it into `{ message }` JSON. The
 * server bundle and the HTTP layer around it each hold a copy of this class, so `instanceof`
 * goes by a brand both copies share.
 */
export class HttpError extends Error {
  readonly [HTTP_ERROR] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[HTTP_ERROR] === true;
  }

  constructor(
    readonly status: number,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(body), { ...init, headers });
}

/** The first issue's message: the spec's messages are per field, so the first one is what a form shows. */
export function zodMessage(err: z.ZodError): string {
  const first = err.issues[0];
  if (!first) return 'Invalid request';
  const field = first.path.join('.');
  return first.message && !first.message.startsWith('Invalid input') ? first.message : `Invalid ${field || 'request'}`;
}

export function errorResponse(err: unknown, path: string): Response {
  if (err instanceof HttpError) return json({ message: err.message }, { status: err.status, headers: err.headers });
  if (err instanceof z.ZodError) return json({ message: zodMessage(err), issues: err.issues }, { status: 400 });
  const pgCode = (err as { code?: string; cause?: { code?: string } })?.cause?.code ?? (err as { code?: string })?.code;
  if (pgCode === '23505') return json({ message: 'A record with the same unique value already exists' }, { status: 409 });
  // Check violation, bad text representation, not null, NUL or untranslatable character.
  if (['23514', '22P02', '23502', '22021', '22P05'].includes(pgCode ?? '')) return json({ message: 'Invalid request' }, { status: 400 });
  log.error('unhandled error', { path, err });
  return json({ message: 'Internal server error' }, { status: 500 });
}

/** Wraps an endpoint: every failure becomes `{ message }` JSON with the right status. */
export function defineHandler(handle: (ctx: APIContext) => Promise<Response> | Response): APIRoute {
  return async (ctx) => {
    try {
      return await handle(ctx);
    } catch (err) {
      return errorResponse(err, ctx.url.pathname);
    }
  };
}

const MAX_JSON_BYTES = 1024 * 1024;

/** Reads a JSON body; wrong content type → 415, oversize → 413, malformed → 400. */
export async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json(\s*;|$)/i.test(type)) {
    throw new HttpError(415, 'Content-Type must be application/json');
  }
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > MAX_JSON_BYTES) throw new HttpError(413, 'Request body is too large');
  const text = await request.text();
  if (text.length > MAX_JSON_BYTES) throw new HttpError(413, 'Request body is too large');
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new HttpError(400, 'Malformed JSON body');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Request body must be a JSON object');
  }
  // Postgres text cannot hold NUL: refuse it here rather than fail in the database.
  if (hasNul(body)) throw new HttpError(400, 'Text must not contain NUL characters');
  return body;
}

function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v));
}

/** Parses a positive integer id from a route parameter; anything else is a 400. */
export function parseId(raw: string | undefined): number {
  if (!raw || !/^[1-9][0-9]{0,9}$/.test(raw) || Number(raw) > 2_147_483_647) {
    throw new HttpError(400, 'Invalid id');
  }
  return Number(raw);
}

export function notFound(what = 'Not found'): never {
  throw new HttpError(404, what);
}

/** 405 with Allow for methods an endpoint does not support (Astro would answer an HTML 404). */
export function methodNotAllowed(allowed: string[]): APIRoute {
  return () => json({ message: 'Method not allowed' }, { status: 405, headers: { allow: allowed.join(', ') } });
}
