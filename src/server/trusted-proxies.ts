import ipaddr from 'ipaddr.js';

/** One trusted proxy range: an address and its prefix length (a single address is a /32 or /128). */
export type ProxyRange = readonly [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Where a proxy on this machine connects from. */
const LOOPBACK = ['127.0.0.0/8', '::1/128'];

/**
 * TRUST_PROXY: the addresses (or CIDR ranges) of the reverse proxies whose `X-Forwarded-*` headers
 * are believed, comma-separated: `127.0.0.1`, `10.0.0.0/8, fd00::/8`. `loopback`, and `true` as
 * earlier versions wrote it, mean a proxy on this machine (127.0.0.0/8 and ::1). Unset, empty,
 * `false` or `0`: none. A string saying which entry is not an address, for anything else.
 */
export function parseTrustedProxies(value: string | undefined): false | ProxyRange[] | string {
  const text = (value ?? '').trim();
  if (['', 'false', '0'].includes(text.toLowerCase())) return false;
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((s) => (['true', '1', 'loopback'].includes(s.toLowerCase()) ? LOOPBACK : [s]));
  const ranges: ProxyRange[] = [];
  for (const entry of entries) {
    try {
      ranges.push(
        entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.process(entry), ipaddr.process(entry).kind() === 'ipv4' ? 32 : 128],
      );
    } catch {
      return `"${entry.slice(0, 60)}" is not an IP address or a CIDR range (e.g. 127.0.0.1 or 10.0.0.0/8)`;
    }
  }
  return ranges;
}

/** Whether a connection from `peer` (the socket's address) comes from one of `proxies`. */
export function fromTrustedProxy(proxies: false | readonly ProxyRange[] | undefined, peer: string | undefined): boolean {
  if (!proxies || !peer || !ipaddr.isValid(peer)) return false;
  const ip = ipaddr.process(peer);
  // ::ffff:127.0.0.1 is processed to 127.0.0.1 above; an IPv4 range never holds an IPv6 address.
  return proxies.some(([range, bits]) => ip.kind() === range.kind() && ip.match(range as typeof ip, bits));
}

/** The ranges of a `trustProxy` option: `true` is a proxy on this machine, `false` none. */
export function proxyRanges(option: boolean | readonly ProxyRange[] | undefined): readonly ProxyRange[] {
  if (option === true) return LOOPBACK.map((cidr) => ipaddr.parseCIDR(cidr));
  return option || [];
}
