import { describe, expect, it } from 'vitest';
import { limitKey } from '#server/client-ip.ts';
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
