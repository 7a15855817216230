import { env } from './env';

/**
 * The client address from the socket. Forwarded headers are trusted only with TRUST_PROXY=true
 * (then the last X-Forwarded-For hop, the one our proxy appended), so a client cannot pick its
 * own address to dodge rate limits.
 */
export function clientAddress(request: Request, socketAddress: () => string | undefined): string {
  if (env().TRUST_PROXY) {
    const forwarded = request.headers.get('x-forwarded-for');
    const last = forwarded
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .pop();
    if (last) return last;
  }
  // Astro's clientAddress is the first X-Forwarded-For value when that header exists, so without a
  // trusted proxy such a request cannot be told apart from a forgery: all of them share one bucket
  // (a browser talking to us directly never sends the header).
  if (request.headers.has('x-forwarded-for')) return 'untrusted-forwarded';
  try {
    return socketAddress() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
