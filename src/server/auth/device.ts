import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomToken } from './crypto';
import { env } from '../env';
import { authSecret } from './secret';
import { isSecureRequest, readCookie, serializeCookie } from './cookies';

/**
 * Device cookies: a browser that completed a sign-in for an account gets a signed, HttpOnly
 * cookie naming that account. On later attempts it is a known client: its failures count against
 * that cookie alone, so strangers guessing the password (and locking out unknown clients) cannot
 * keep the owner out. Only the server can make one; it names the account it was issued for.
 */
const DEVICE_COOKIE = 'ps.device';
const DEVICE_TTL_S = 180 * 24 * 3600;
/**
 * Over https it is `__Host-ps.device` (Secure, Path=/, no Domain), as the session cookie is: bound
 * to this host, never set or replaced by a sibling subdomain. Plain http (local use) keeps
 * `ps.device`, sent to /api only.
 */
const deviceCookieName = (secure: boolean) => (secure ? `__Host-${DEVICE_COOKIE}` : DEVICE_COOKIE);

const sign = (userId: string, nonce: string) =>
  createHmac('sha256', `${authSecret()}:device-cookie`).update(`${userId}.${nonce}`).digest('base64url');

/** A fresh device cookie for `userId`, sent with every successful sign-in. */
export function deviceCookie(userId: string, secure: boolean): string {
  const nonce = randomToken(16);
  return serializeCookie(deviceCookieName(secure), `${userId}.${nonce}.${sign(userId, nonce)}`, {
    maxAgeSeconds: DEVICE_TTL_S,
    httpOnly: true,
    secure,
    path: secure ? '/' : '/api',
    sameSite: 'Strict',
  });
}

/** The nonce of the request's device cookie when it is genuine and was issued for `userId`. */
export function knownDevice(request: Request, userId: string): string | undefined {
  const name = deviceCookieName(isSecureRequest(request, env().SITE_URL));
  const [owner, nonce, mac] = (readCookie(request, name) ?? '').split('.');
  if (!owner || !nonce || !mac || owner !== userId) return undefined;
  const expected = Buffer.from(sign(owner, nonce));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given) ? nonce : undefined;
}
