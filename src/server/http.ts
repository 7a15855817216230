import type { APIContext, APIRoute } from 'astro';
import { z } from 'zod';
import { log } from './log';

/** The one error type services throw; `defineHandler` turns it into `{ message }` JSON. */
export class HttpError extends Error {
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
function zodMessage(err: z.ZodError): string {
  const first = err.issues[0];
  if (!first) return 'Invalid request';
  const field = first.path.join('.');
  return first.message && !first.message.startsWith('Invalid input') ? first.message : `Invalid ${field || 'request'}`;
}

const DATABASE_RETRY_AFTER_S = 10;
/**
 * Connection failures (Node's and postgres-js's codes) and every Postgres class that means "cannot
 * serve now": 08 connection exceptions, 53 insufficient resources, 55000 (among others a database
 * that does not allow connections) and 57P operator interventions (shutdowns, cannot connect now).
 */
const UNAVAILABLE =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|CONNECT_TIMEOUT|CONNECTION_CLOSED|CONNECTION_ENDED|CONNECTION_DESTROYED|08...|53...|55000|57P..)$/;

/**
 * The database outage this process is in, if any: its first refused request logs one line, each
 * further one only counts, and the first endpoint answered normally afterwards logs the end with
 * the count (a few hundred requests in an outage are two log lines, not a few hundred).
 */
let outage: { since: number; refused: number; dbCode: string | undefined } | undefined;

/** True while requests are being refused because the database cannot serve. */
export const inDatabaseOutage = (): boolean => outage !== undefined;

function outageRefused(dbCode: string | undefined, path: string, id: string | null | undefined): void {
  if (outage) {
    outage.refused++;
    return;
  }
  outage = { since: Date.now(), refused: 1, dbCode };
  log.warn('database unavailable: answering 503 until it is back', { id, path, dbCode });
}

function outageOver(): void {
  if (!outage) return;
  const { since, refused, dbCode } = outage;
  outage = undefined;
  log.warn('database available again', { seconds: Math.round((Date.now() - since) / 1000), refused, dbCode });
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = e?.cause?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

function databaseUnavailable(err: unknown): boolean {
  return UNAVAILABLE.test(errorCode(err) ?? '');
}

export function errorResponse(err: unknown, path: string, id?: string | null): Response {
  if (err instanceof HttpError) return json({ message: err.message }, { status: err.status, headers: err.headers });
  if (err instanceof z.ZodError) return json({ message: zodMessage(err), issues: err.issues }, { status: 400 });
  const pgCode = errorCode(err);
  if (pgCode === '23505') return json({ message: 'A record with the same unique value already exists' }, { status: 409 });
  // Check violation, bad text representation, not null, NUL or untranslatable character.
  if (['23514', '22P02', '23502', '22021', '22P05'].includes(pgCode ?? '')) return json({ message: 'Invalid request' }, { status: 400 });
  if (databaseUnavailable(err)) {
    outageRefused(errorCode(err), path, id);
    return json(
      { message: 'The service is briefly unavailable. Please try again in a minute.' },
      { status: 503, headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) } },
    );
  }
  log.error('unhandled error', { id, path, err });
  return json({ message: 'Internal server error' }, { status: 500 });
}

/** Wraps an endpoint: every failure becomes `{ message }` JSON with the right status. */
export function defineHandler(handle: (ctx: APIContext) => Promise<Response> | Response): APIRoute {
  return async (ctx) => {
    try {
      const response = await handle(ctx);
      outageOver();
      return response;
    } catch (err) {
      return errorResponse(err, ctx.url.pathname, ctx.request.headers.get('x-request-id'));
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
    // A syntax error, or nesting so deep that the parser ran out of stack.
    throw new HttpError(400, 'Malformed JSON body');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Request body must be a JSON object');
  }
  // Postgres text cannot hold NUL: refuse it here rather than fail in the database.
  if (hasNul(body)) throw new HttpError(400, 'Text must not contain NUL characters');
  return body;
}

/** The schema under its wrappers: a pipe's input, and what optional, nullable, default and the like wrap. */
function unwrapped(schema: unknown): unknown {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodPipe) s = s.in;
    else if (s instanceof z.ZodType && 'innerType' in s.def && s.def.innerType instanceof z.ZodType) s = s.def.innerType;
    else return s;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The body's fields that its schema does not know, at any depth (`naicsCodes[0].evil`), in the
 * body's order, at most `max` of them. An object schema that takes any other key (a catch-all)
 * and anything that is not an object or array schema are not looked into. No recursion.
 */
function unknownFields(schema: z.ZodType, body: unknown, also: readonly string[], max: number): string[] {
  const found: string[] = [];
  const queue: [schema: unknown, value: unknown, path: string][] = [[schema, body, '']];
  for (let i = 0; i < queue.length && found.length < max; i++) {
    const [raw, value, path] = queue[i]!;
    const s = unwrapped(raw);
    if (s instanceof z.ZodObject && isRecord(value)) {
      const catchall = s.def.catchall;
      const open = catchall !== undefined && !(catchall instanceof z.ZodNever);
      for (const [key, v] of Object.entries(value)) {
        const name = path ? `${path}.${key}` : key;
        if (Object.hasOwn(s.shape, key)) queue.push([s.shape[key], v, name]);
        else if (!open && !(path === '' && also.includes(key))) found.push(name);
      }
    } else if (s instanceof z.ZodArray && Array.isArray(value)) {
      value.forEach((v, n) => queue.push([s.element, v, `${path}[${n}]`]));
    }
  }
  return found;
}

/**
 * For the back office: a body field the schema does not know, at any depth, is a 400 naming it. A
 * misspelt or misplaced field (`published` for `isPublished`) would otherwise be dropped by
 * parsing and the rest saved as if it had been understood. `also` names top-level fields a route
 * reads itself (`section` of a new content block).
 */
export function refuseUnknownFields(schema: z.ZodType, body: unknown, also: readonly string[] = []): void {
  const unknown = unknownFields(schema, body, also, 6);
  if (unknown.length === 0) return;
  const names = unknown.slice(0, 5).join(', ') + (unknown.length > 5 ? ' and more' : '');
  throw new HttpError(400, `Unknown field${unknown.length > 1 ? 's' : ''}: ${names}`);
}

/** `schema.parse(body)` after `refuseUnknownFields`. */
export function parseKnown<T extends z.ZodType>(schema: T, body: unknown, also: readonly string[] = []): z.output<T> {
  refuseUnknownFields(schema, body, also);
  return schema.parse(body);
}

/** A back-office JSON body: read (`readJson`), then parsed by `schema` with unknown fields refused (`parseKnown`). */
export async function readBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.output<T>> {
  return parseKnown(schema, await readJson(request));
}

/** No form nests deeper than this; a body that does is refused rather than walked. */
const MAX_JSON_DEPTH = 32;

/** Walks the parsed body without recursion, so no nesting can overflow the stack. */
function hasNul(root: unknown): boolean {
  const stack: [value: unknown, depth: number][] = [[root, 0]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= MAX_JSON_DEPTH) throw new HttpError(400, 'Request body is nested too deeply');
      for (const [k, v] of Object.entries(value)) {
        if (k.includes('\u0000')) return true;
        stack.push([v, depth + 1]);
      }
    }
  }
  return false;
}

/** Parses a positive integer id from a route parameter; anything else is a 400. */
export function parseId(raw: string | undefined): number {
  if (!raw || !/^[1-9][0-9]{0,9}$/.test(raw) || Number(raw) > 2_147_483_647) {
    throw new HttpError(400, 'Invalid id');
  }
  return Number(raw);
}

/** 405 with Allow for methods an endpoint does not support (Astro would answer an HTML 404). */
export function methodNotAllowed(allowed: string[]): APIRoute {
  return () => json({ message: 'Method not allowed' }, { status: 405, headers: { allow: allowed.join(', ') } });
}
