import ipaddr from 'ipaddr.js';
import { env } from './env';

/**
 * A client address as it may be stored (an inquiry's, an audit row's, a session's): a valid IP
 * address, normalised (`::ffff:192.0.2.1` is 192.0.2.1), or null for anything else.
 */
export function storedAddress(address: string | undefined): string | null {
  if (!address || address.length > 64 || !ipaddr.isValid(address)) return null;
  return ipaddr.process(address).toString();
}

/**
 * The client address from the socket. Forwarded headers are believed only from a proxy TRUST_PROXY
 * names: the server drops them from any other peer before Astro sees them (app-server.ts), so a
 * client cannot pick its own address to dodge rate limits. Then the last X-Forwarded-For hop (the
 * one our proxy appended) is the client, if it is an IP address.
 */
export function clientAddress(request: Request, socketAddress: () => string | undefined): string {
  if (env().TRUST_PROXY) {
    const forwarded = request.headers.get('x-forwarded-for');
    const last = forwarded
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .pop();
    if (last) return storedAddress(last) ?? 'invalid-forwarded';
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

/**
 * What the flood limits count a client address as: an IPv4 address as itself (also when written
 * IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address by its /64 network, since one subscriber line
 * is given a whole /64 and can pick any address in it. Anything else ('unknown',
 * 'untrusted-forwarded') is its own bucket.
 */
export function limitKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const network = new ipaddr.IPv6([...(ip as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0]);
  return `${network.toRFC5952String()}/64`;
}
