/** better-auth's cookie prefix: `ps.session_token`, or `__Host-ps.session_token` over https. */
export const COOKIE_PREFIX = 'ps';
/** A Cookie header that carries a session cookie (signed in, or a stale one to clear). */
export const SESSION_COOKIE = new RegExp(`(?:^|;)\\s*(?:__Host-)?${COOKIE_PREFIX}\\.session_token=`);

/** The non-secret hint the static header reads to decide whether to ask GET /api/user (SPEC 2.2). */
export const HINT_COOKIE = 'signed_in';
/** Binds the code step to the password step that just succeeded (raw challenge id; stored hashed). */
export const CHALLENGE_COOKIE = 'ps.2fa_challenge';
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;

interface CookieOptions {
  maxAgeSeconds: number;
  httpOnly: boolean;
  secure: boolean;
  path?: string;
  sameSite?: 'Lax' | 'Strict';
}

export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${o.path ?? '/'}`,
    `Max-Age=${Math.max(0, Math.floor(o.maxAgeSeconds))}`,
    `SameSite=${o.sameSite ?? 'Lax'}`,
  ];
  if (o.maxAgeSeconds <= 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (o.httpOnly) parts.push('HttpOnly');
  if (o.secure) parts.push('Secure');
  return parts.join('; ');
}

export function hintCookie(signedIn: boolean, secure: boolean, maxAgeSeconds: number): string {
  return serializeCookie(HINT_COOKIE, signedIn ? '1' : '', { maxAgeSeconds: signedIn ? maxAgeSeconds : 0, httpOnly: false, secure });
}

/**
 * A cookie that binds one step of signing in to the step before it (the code step, the provider
 * link step): HttpOnly, Strict, sent to /api/auth only; null clears it.
 */
export function signInStepCookie(name: string, value: string | null, ttlMs: number, secure: boolean): string {
  return serializeCookie(name, value ?? '', {
    maxAgeSeconds: value ? ttlMs / 1000 : 0,
    httpOnly: true,
    secure,
    path: '/api/auth',
    sameSite: 'Strict',
  });
}

export function challengeCookie(value: string | null, secure: boolean): string {
  return signInStepCookie(CHALLENGE_COOKIE, value, CHALLENGE_TTL_MS, secure);
}

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Adds Set-Cookie headers to a response. */
export function withCookies(response: Response, cookies: string[]): Response {
  for (const c of cookies) response.headers.append('set-cookie', c);
  return response;
}

/** Cookies get `Secure` when the request came over https or the site is served over https. */
export function isSecureRequest(request: Request, siteUrl?: string): boolean {
  return new URL(request.url).protocol === 'https:' || Boolean(siteUrl?.startsWith('https:'));
}
