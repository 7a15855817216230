import { createHash } from 'node:crypto';
import islandScript from 'astro/runtime/server/astro-island.prebuilt.js';
import idleDirective from 'astro/runtime/client/idle.prebuilt.js';
import loadDirective from 'astro/runtime/client/load.prebuilt.js';
import mediaDirective from 'astro/runtime/client/media.prebuilt.js';
import onlyDirective from 'astro/runtime/client/only.prebuilt.js';
import visibleDirective from 'astro/runtime/client/visible.prebuilt.js';
import { HEADER_SCRIPT, INSIGHT_SEARCH_SCRIPT, MISSING_DOCUMENT_SCRIPT } from '#shared/inline-scripts.ts';

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)(?![^>]*type="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/gi;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The inline scripts a build emits, and only these: Astro's island runtime and its hydration
 * directives (the same texts Astro itself hashes for its CSP), and our own inline scripts. What
 * else appears in a page as an inline script was not written by us and never gets a hash.
 */
const TRUSTED: ReadonlySet<string> = new Set(
  [
    islandScript,
    idleDirective,
    loadDirective,
    mediaDirective,
    onlyDirective,
    visibleDirective,
    HEADER_SCRIPT,
    INSIGHT_SEARCH_SCRIPT,
    MISSING_DOCUMENT_SCRIPT,
  ].map(sha256),
);

/** Every inline executable script of an HTML page, with its hash and whether the build emits it. */
export function inlineScripts(html: string): { hash: string; trusted: boolean; text: string }[] {
  return [...html.matchAll(INLINE_SCRIPT)].map((m) => {
    const text = m[1] ?? '';
    const hash = sha256(text);
    return { hash, trusted: TRUSTED.has(hash), text };
  });
}

/** sha256 sources for the inline scripts of an HTML page that the build itself emits. */
export function inlineScriptHashes(html: string): string[] {
  return [
    ...new Set(
      inlineScripts(html)
        .filter((s) => s.trusted)
        .map((s) => s.hash),
    ),
  ];
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
    "base-uri 'none'",
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
