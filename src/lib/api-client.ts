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

  /** The server's `{ message }` when the body is JSON, else the raw text. */
  get serverMessage(): string {
    try {
      const parsed = JSON.parse(this.body) as { message?: unknown };
      if (typeof parsed.message === 'string') return parsed.message;
    } catch {
      /* not JSON */
    }
    return this.body || this.message;
  }
}

async function apiRequest<T = unknown>(method: string, url: string, body?: unknown, background = false): Promise<T> {
  const init: RequestInit = { method, credentials: 'include', headers: background ? { [BACKGROUND_HEADER]: '1' } : {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(url, init);
  noteIdle(res);
  if (!res.ok) throw new ApiError(res.status, await res.text().catch(() => ''), res.statusText);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(url: string) => apiRequest<T>('GET', url),
  /** A read that polls on its own: it does not keep the session from going idle. */
  poll: <T>(url: string) => apiRequest<T>('GET', url, undefined, true),
  post: <T>(url: string, body?: unknown) => apiRequest<T>('POST', url, body ?? {}),
  patch: <T>(url: string, body: unknown) => apiRequest<T>('PATCH', url, body),
  put: <T>(url: string, body: unknown) => apiRequest<T>('PUT', url, body),
  delete: <T>(url: string, body?: unknown) => apiRequest<T>('DELETE', url, body),
};

/** A message for a toast: the server's message when there is one. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.serverMessage || fallback;
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}
