import { describe, expect, it } from 'vitest';
import { limitKey, storedAddress } from '#server/client-ip.ts';
import { fromTrustedProxy, parseTrustedProxies, type ProxyRange } from '#server/trusted-proxies.ts';
import { digestSummary } from '#server/services/lead-digest.ts';

describe('[LEADS][FLOOD] what the flood limits count an address as', () => {
  it('an IPv4 address is itself, also when written IPv4-mapped', () => {
    expect(limitKey('203.0.113.5')).toBe('203.0.113.5');
    expect(limitKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(limitKey('::FFFF:203.0.113.5')).toBe('203.0.113.5');
    expect(limitKey('::ffff:cb00:7105')).toBe('203.0.113.5');
    expect(limitKey('203.0.113.6')).not.toBe(limitKey('203.0.113.5'));
  });

  it('two IPv6 addresses in one /64 share a key, however they are written; another /64 does not', () => {
    const a = limitKey('2001:db8:1:2::1');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(limitKey('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe(a);
    expect(limitKey('2001:0DB8:0001:0002:8000:0000:0000:0077')).toBe(a);
    expect(limitKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(limitKey('2001:db8:1:3::1')).not.toBe(a);
    expect(limitKey('2001:db9:1:2::1')).not.toBe(a);
    expect(limitKey('fe80::1%eth0')).toBe('fe80::/64');
    expect(limitKey('::1')).toBe('::/64');
  });

  it('what is not an address is a bucket of its own', () => {
    expect(limitKey('unknown')).toBe('unknown');
    expect(limitKey('untrusted-forwarded')).toBe('untrusted-forwarded');
    expect(limitKey('')).toBe('');
  });
});

describe('[LEADS][FLOOD] the digest says in one line what is waiting', () => {
  it('numbers, singulars and what is left out', () => {
    expect(digestSummary(37, 412)).toBe('37 more inquiries; 412 held as spam; open the inbox');
    expect(digestSummary(1, 0)).toBe('1 more inquiry; open the inbox');
    expect(digestSummary(0, 5640)).toBe('5,640 held as spam; open the inbox');
    expect(digestSummary(5641, 1)).toBe('5,641 more inquiries; 1 held as spam; open the inbox');
  });
});

describe('[SECURITY] TRUST_PROXY: the proxies whose forwarded address is believed', () => {
  const ranges = (value: string) => parseTrustedProxies(value) as ProxyRange[];

  it('off when unset, empty, false or 0', () => {
    for (const off of [undefined, '', ' ', 'false', 'FALSE', '0']) expect(parseTrustedProxies(off), String(off)).toBe(false);
  });

  it('true and loopback mean a proxy on this machine only', () => {
    for (const on of ['true', '1', 'loopback']) {
      const proxies = ranges(on);
      for (const peer of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'])
        expect(fromTrustedProxy(proxies, peer), `${on} ${peer}`).toBe(true);
      for (const peer of ['10.0.0.1', '192.0.2.1', '::2', '2001:db8::1'])
        expect(fromTrustedProxy(proxies, peer), `${on} ${peer}`).toBe(false);
    }
  });

  it('addresses and CIDR ranges, IPv4 and IPv6, comma-separated', () => {
    const proxies = ranges(' 10.0.0.0/8, 192.0.2.7 ,fd00::/8');
    expect(fromTrustedProxy(proxies, '10.200.3.4')).toBe(true);
    expect(fromTrustedProxy(proxies, '::ffff:10.200.3.4')).toBe(true);
    expect(fromTrustedProxy(proxies, '192.0.2.7')).toBe(true);
    expect(fromTrustedProxy(proxies, '192.0.2.8')).toBe(false);
    expect(fromTrustedProxy(proxies, 'fd12:3456::1')).toBe(true);
    expect(fromTrustedProxy(proxies, '127.0.0.1')).toBe(false);
    expect(fromTrustedProxy(proxies, undefined)).toBe(false);
    expect(fromTrustedProxy(proxies, 'not an address')).toBe(false);
    expect(fromTrustedProxy(false, '127.0.0.1')).toBe(false);
  });

  it('an entry that is not an address is named', () => {
    expect(parseTrustedProxies('10.0.0.1, proxy.internal')).toBe(
      '"proxy.internal" is not an IP address or a CIDR range (e.g. 127.0.0.1 or 10.0.0.0/8)',
    );
    expect(parseTrustedProxies('10.0.0.0/33')).toMatch(/^"10\.0\.0\.0\/33" is not/);
  });

  it('a stored address is an IP address, normalised, or nothing', () => {
    expect(storedAddress('203.0.113.5')).toBe('203.0.113.5');
    expect(storedAddress('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(storedAddress('2001:DB8::1')).toBe('2001:db8::1');
    for (const bad of ['x'.repeat(6000), 'untrusted-forwarded', 'unknown', '999.1.1.1', '<script>', '', undefined])
      expect(storedAddress(bad), String(bad).slice(0, 20)).toBeNull();
  });
});
