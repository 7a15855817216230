import { env } from './env';

/**
 * The client address from the socket. Forwarded headers are trusted only with TRUST_PROXY=true
 * (then the last X-Forwarded-For hop, the one our proxy appended), so a client cannot pick its
 * own address to dodge rate limits.
 */
export function clientAddress(request: Request, socketAddress: () => string | undefined): string {
  if (env().TRUST_PROXY) {
    const forwarded = request.headers.get('x-forwarded-for');
    const last = forwarded?.split(',').map((s) => s.trim()).filter(Boolean).pop();
    if (last) return last;
  }
  try {
    return socketAddress() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
