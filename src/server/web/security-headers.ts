import { createHash } from 'node:crypto';

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)(?![^>]*type="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/gi;

/** sha256 sources for every inline executable script of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(INLINE_SCRIPT)) {
    hashes.add(`'sha256-${createHash('sha256').update(m[1] ?? '').digest('base64')}'`);
  }
  return [...hashes];
}

/**
 * The CSP of an HTML page: scripts only from our origin or the exact inline scripts the build
 * produced (so an injected inline script does not run), nothing framed, nothing fetched elsewhere.
 */
export function htmlCsp(scriptHashes: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** For JSON and anything that is not a page: nothing may run or load. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Headers every response carries. */
export function baseSecurityHeaders(isHttps: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  };
  if (isHttps) headers['strict-transport-security'] = 'max-age=63072000; includeSubDomains';
  return headers;
}

/**
 * An HTML page rendered on demand (the insight preview) gets the CSP a prerendered page gets:
 * its own inline scripts by hash, nothing else.
 */
export async function withPageCsp(response: Response): Promise<Response> {
  if (!response.headers.get('content-type')?.startsWith('text/html') || !response.body) return response;
  const html = await response.text();
  const headers = new Headers(response.headers);
  headers.set('content-security-policy', htmlCsp(inlineScriptHashes(html)));
  return new Response(html, { status: response.status, statusText: response.statusText, headers });
}
