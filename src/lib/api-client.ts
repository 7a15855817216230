import { BACKGROUND_HEADER, IDLE_HEADER } from '#shared/session.ts';

type IdleListener = (deadline: number) => void;
const idleListeners = new Set<IdleListener>();
let idleDeadline: number | undefined;

/**
 * Follows when the session will end for lack of use: every signed-in answer says how many seconds
 * are left. The listener gets the deadline (this browser's clock, ms), now if one is known.
 */
export function onSessionIdle(listener: IdleListener): () => void {
  idleListeners.add(listener);
  if (idleDeadline !== undefined) listener(idleDeadline);
  return () => idleListeners.delete(listener);
}

function noteIdle(res: Response): void {
  const seconds = Number(res.headers.get(IDLE_HEADER) ?? NaN);
  if (!Number.isFinite(seconds)) return;
  idleDeadline = Date.now() + seconds * 1000;
  for (const listener of idleListeners) listener(idleDeadline);
}

/**
 * The one fetch wrapper (SPEC 7): sends the session cookie, sends and reads JSON, and raises
 * `ApiError` whose message is `"{status}: {response text or status text}"`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
  }
}

interface Answer<T> {
  data: T;
  headers: Headers;
}

/**
 * The last answer to each polled URL that carried an ETag, so the next poll asks with
 * If-None-Match and a 304 (nothing changed) costs no body. Answers are kept in memory only (the
 * server marks them no-store); the oldest are forgotten past a few dozen URLs.
 */
const remembered = new Map<string, { etag: string; answer: Answer<unknown> }>();
const REMEMBER_AT_MOST = 40;

function remember(url: string, etag: string | null, answer: Answer<unknown>): void {
  remembered.delete(url);
  if (!etag) return;
  remembered.set(url, { etag, answer });
  if (remembered.size > REMEMBER_AT_MOST) remembered.delete(remembered.keys().next().value!);
}

async function request<T>(method: string, url: string, body?: unknown, background = false): Promise<Answer<T>> {
  const headers: Record<string, string> = background ? { [BACKGROUND_HEADER]: '1' } : {};
  const init: RequestInit = { method, credentials: 'include', headers };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const known = background && method === 'GET' ? remembered.get(url) : undefined;
  if (known) headers['if-none-match'] = known.etag;
  const res = await fetch(url, init);
  noteIdle(res);
  if (res.status === 304 && known) return known.answer as Answer<T>;
  if (!res.ok) throw new ApiError(res.status, await res.text().catch(() => ''), res.statusText);
  if (res.status === 204) return { data: undefined as T, headers: res.headers };
  const text = await res.text();
  const answer = { data: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
  if (background && method === 'GET') remember(url, res.headers.get('etag'), answer);
  return answer;
}

async function apiRequest<T = unknown>(method: string, url: string, body?: unknown, background = false): Promise<T> {
  return (await request<T>(method, url, body, background)).data;
}

/** One page of a paged list: its rows, the URL of the next page (`Link: <…>; rel="next"`) and the total the filters match. */
export interface Page<T> {
  items: T[];
  next: string | null;
  total: number;
  /** The total is a lower bound: the server counted up to it (`X-Total-Capped`). */
  capped: boolean;
}

/** The `rel="next"` target of a Link header as our API writes it (one link, `<url>; rel="next"`). */
function nextLink(link: string | null): string | null {
  return link ? (/<([^>]*)>\s*;\s*rel="?next"?/.exec(link)?.[1] ?? null) : null;
}

export const api = {
  get: <T>(url: string) => apiRequest<T>('GET', url),
  /** A read that polls on its own: it does not keep the session from going idle, and asks with the last ETag. */
  poll: <T>(url: string) => apiRequest<T>('GET', url, undefined, true),
  /** A polled page of a paged list (see `poll`). */
  pollPage: async <T>(url: string): Promise<Page<T>> => {
    const { data, headers } = await request<T[]>('GET', url, undefined, true);
    return {
      items: data,
      next: nextLink(headers.get('link')),
      total: Number(headers.get('x-total-count') ?? data.length),
      capped: headers.get('x-total-capped') === 'true',
    };
  },
  post: <T>(url: string, body?: unknown) => apiRequest<T>('POST', url, body ?? {}),
  patch: <T>(url: string, body: unknown) => apiRequest<T>('PATCH', url, body),
  put: <T>(url: string, body: unknown) => apiRequest<T>('PUT', url, body),
  delete: <T>(url: string, body?: unknown) => apiRequest<T>('DELETE', url, body),
};

/*
 * Plain words: what went wrong, said for the person at the keyboard, with what to do next. The
 * server's own message is kept when it was written for people ("Title is required", "This item was
 * changed by someone else…"); technical ones, server faults and lost connections are replaced here,
 * the one place on the client that turns a failure into a sentence.
 */
const PLAIN = {
  offline: 'The server could not be reached. Check your internet connection, then try again.',
  signedOut: 'You have been signed out. Sign in again (in a new tab, to keep this page), then try again.',
  notAllowed: 'Your account is not allowed to do this. Ask an administrator of the website.',
  gone: 'This item no longer exists; someone may have deleted it. Reload the page to see the latest list.',
  checkForm: 'Some of what you entered was not accepted. Check the fields, then try again.',
  unreadable: 'The server could not read what the browser sent. Reload the page, then try again.',
  tooLarge: 'This is too large to send. Use a smaller file or a shorter text.',
  tooMany: 'Too many attempts in a short time. Wait a minute, then try again.',
  duplicate: 'Something with the same name or address already exists. Choose a different one.',
  busy: 'The website is busy or restarting. Wait a minute, then try again.',
  fault: 'Something went wrong on the server. Try again in a minute; if it keeps happening, tell whoever looks after the website.',
} as const;

/** Server messages meant for developers, and the sentence that replaces each. */
const TECHNICAL: Record<string, string> = {
  'Authentication required': PLAIN.signedOut,
  'Administrator access required': PLAIN.notAllowed,
  'Invalid request': PLAIN.checkForm,
  'Invalid id': PLAIN.gone,
  'Malformed JSON body': PLAIN.unreadable,
  'Malformed multipart body': PLAIN.unreadable,
  'Request body must be a JSON object': PLAIN.unreadable,
  'Request body is nested too deeply': PLAIN.unreadable,
  'Content-Type must be application/json': PLAIN.unreadable,
  'Request body is too large': PLAIN.tooLarge,
  'A record with the same unique value already exists': PLAIN.duplicate,
  'Method not allowed': PLAIN.unreadable,
};

function byStatus(status: number): string {
  if (status === 401) return PLAIN.signedOut;
  if (status === 403) return PLAIN.notAllowed;
  if (status === 404 || status === 410) return PLAIN.gone;
  if (status === 413) return PLAIN.tooLarge;
  if (status === 429) return PLAIN.tooMany;
  if (status === 502 || status === 503 || status === 504) return PLAIN.busy;
  if (status >= 500) return PLAIN.fault;
  return PLAIN.checkForm;
}

/** The server's `{ message }` only (no raw body: a proxy's HTML page is no message). */
function jsonMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === 'string' && parsed.message.trim() ? parsed.message : undefined;
  } catch {
    return undefined;
  }
}

/** A failure in plain words with what to do next, for toasts, inline errors and load errors. */
export function errorMessage(err: unknown, fallback: string = PLAIN.fault): string {
  if (err instanceof ApiError) {
    // A server fault's text ("Internal server error", a stack, a proxy page) never reaches the screen.
    if (err.status >= 500 || err.status === 0) return byStatus(err.status);
    const message = jsonMessage(err.body);
    if (!message) return byStatus(err.status);
    if (TECHNICAL[message]) return TECHNICAL[message];
    if (err.status === 404 && /not found$/i.test(message)) return PLAIN.gone;
    return message;
  }
  // fetch() rejects with a TypeError when the request never got an answer.
  if (err instanceof TypeError) return PLAIN.offline;
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}
