import { describe, expect, it } from 'vitest';
import { hintCookie, challengeCookie, readCookie, serializeCookie } from '#server/auth/cookies.ts';
import { backoffMs } from '#server/mail/worker.ts';
import { hashPassword, verifyPassword } from '#server/password.ts';
import { resetEnvCache } from '#server/env.ts';

process.env.AUTH_SECRET ??= 'unit-test-secret-unit-test-secret-0123456789';
const crypto = await import('#server/auth/crypto.ts');

describe('auth crypto', () => {
  it('[AUTH][CRYPTO]: TOTP secrets round-trip through AES-256-GCM with a fresh IV, and tampering is detected', () => {
    const a = crypto.encryptSecret('JBSWY3DPEHPK3PXP');
    const b = crypto.encryptSecret('JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(crypto.decryptSecret(a)).toBe('JBSWY3DPEHPK3PXP');
    const parts = a.split('.');
    const flipped = parts[3]!.startsWith('A') ? `B${parts[3]!.slice(1)}` : `A${parts[3]!.slice(1)}`;
    expect(() => crypto.decryptSecret([parts[0], parts[1], parts[2], flipped].join('.'))).toThrow();
  });

  it('[AUTH][CRYPTO]: codes are keyed hashes, recovery codes normalise case and separators', () => {
    expect(crypto.hashCode('recovery', 'abcde-fghjk')).toMatch(/^[0-9a-f]{64}$/);
    expect(crypto.hashCode('recovery', 'abcde-fghjk')).not.toBe(crypto.hashCode('login-code', 'abcde-fghjk'));
    expect(crypto.normaliseRecoveryCode(' ABCDE FGHJK ')).toBe('abcde-fghjk');
    expect(crypto.recoveryCode()).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(crypto.sixDigitCode()).toMatch(/^\d{6}$/);
    expect(crypto.sameHash('ab', 'ab')).toBe(true);
    expect(crypto.sameHash('ab', 'ac')).toBe(false);
  });
});

describe('auth cookies', () => {
  it('[AUTH][COOKIES]: the hint is readable by scripts; the challenge cookie is HttpOnly, Strict and scoped to /api/auth', () => {
    expect(hintCookie(true, false, 43200)).toBe('signed_in=1; Path=/; Max-Age=43200; SameSite=Lax');
    expect(hintCookie(false, true, 0)).toMatch(/^signed_in=; Path=\/; Max-Age=0; SameSite=Lax; Expires=.*; Secure$/);
    const c = challengeCookie('abc', true);
    expect(c).toContain('HttpOnly');
    expect(c).toContain('SameSite=Strict');
    expect(c).toContain('Path=/api/auth');
    expect(c).toContain('Max-Age=600');
    expect(serializeCookie('x', 'a b', { maxAgeSeconds: 1, httpOnly: false, secure: false })).toMatch(/^x=a%20b;/);
    const req = new Request('http://x/', { headers: { cookie: 'a=1; ps.2fa_challenge=tok%2Fen; b=2' } });
    expect(readCookie(req, 'ps.2fa_challenge')).toBe('tok/en');
    expect(readCookie(req, 'missing')).toBeUndefined();
  });
});

describe('mail backoff', () => {
  it('[AUTH][MAIL]: retries wait 30 s, then twice as long each time, at most an hour', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(backoffMs(20)).toBe(3_600_000);
  });
});

describe('password hashing', () => {
  it('[AUTH][PASSWORD]: outside the test suites passwords are hashed with OWASP scrypt (N=2^15, r=8, p=3); a hash verifies by its own parameters', async () => {
    const was = process.env.NODE_ENV;
    try {
      for (const mode of ['production', undefined]) {
        if (mode === undefined) delete process.env.NODE_ENV;
        else process.env.NODE_ENV = mode;
        resetEnvCache();
        const hash = await hashPassword('correct horse battery');
        expect(hash).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/);
        process.env.NODE_ENV = 'test';
        resetEnvCache();
        // The suites' cheap parameters never apply to a hash made with the real ones.
        expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
        expect(await verifyPassword(hash, 'correct horse batterY')).toBe(false);
      }
      expect(await hashPassword('x')).toMatch(/^scrypt\$1024\$8\$1\$/);
    } finally {
      process.env.NODE_ENV = was;
      resetEnvCache();
    }
  }, 30_000);
});
