import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits, users } from '#server/db/schema/index.ts';
import { TEST_ADMIN, cookieHeader, startTestServer, type TestServer } from './helpers/server';

/*
 * Behind a TLS-terminating proxy (TRUST_PROXY and `X-Forwarded-Proto: https`) the session cookie
 * is `__Host-` prefixed and Secure; plain http (local use) keeps `ps.session_token`.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ trustProxy: true });
}, 180_000);
afterAll(async () => {
  await server?.close();
});

const https = () => ({ 'x-forwarded-proto': 'https', origin: server.url.replace('http:', 'https:') });

describe('[SECURITY] session cookies behind a TLS proxy', { timeout: 60_000 }, () => {
  it('an https sign-in sets a Secure __Host- session cookie with Path=/ and no Domain, and it authenticates later https calls', async () => {
    const res = await server.request('/api/login', {
      method: 'POST',
      headers: https(),
      json: { username: TEST_ADMIN.username, password: TEST_ADMIN.password },
    });
    expect(res.status).toBe(200);
    const session = res.headers.getSetCookie().find((c) => c.startsWith('__Host-ps.session_token='));
    expect(session).toBeDefined();
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*Path=\/(;|$)/i);
    expect(session).not.toMatch(/Domain=/i);
    expect(session).toMatch(/HttpOnly/i);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('ps.session_token='))).toBe(false);
    // The browser's device cookie too: `__Host-`, Secure, Path=/, no Domain.
    const device = res.headers.getSetCookie().find((c) => c.startsWith('__Host-ps.device='));
    expect(device).toMatch(/;\s*Secure/i);
    expect(device).toMatch(/;\s*Path=\/(;|$)/i);
    expect(device).toMatch(/HttpOnly/i);
    expect(device).toMatch(/SameSite=Strict/i);
    expect(device).not.toMatch(/Domain=/i);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('ps.device='))).toBe(false);

    const cookie = cookieHeader(res);
    const me = await server.request('/api/user', { headers: https(), cookie });
    expect(me.status).toBe(200);
    expect((await me.json()).user.username).toBe(TEST_ADMIN.username);

    const out = await server.request('/api/logout', { method: 'POST', headers: https(), cookie });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().find((c) => c.startsWith('__Host-ps.session_token='))).toMatch(/Max-Age=0/i);
    expect((await server.request('/api/user', { headers: https(), cookie })).status).toBe(401);
  });

  it('over https the __Host- device cookie still keeps its browser out of a lockout strangers caused', async () => {
    // Each attempt with a fresh per-address allowance: the lockout, not the rate limit, is under test.
    const login = async (password: string, cookie?: string) => {
      await server.db.delete(rateLimits).where(like(rateLimits.key, 'login:ip:%'));
      return server.request('/api/login', { method: 'POST', headers: https(), json: { username: TEST_ADMIN.username, password }, cookie });
    };
    const first = await login(TEST_ADMIN.password);
    expect(first.status).toBe(200);
    const device = first.headers
      .getSetCookie()
      .find((c) => c.startsWith('__Host-ps.device='))!
      .split(';')[0]!;
    for (let i = 0; i < 5; i++) expect((await login('wrong-password-guess')).status).toBe(401);
    expect((await login(TEST_ADMIN.password)).status).toBe(423);
    expect((await login(TEST_ADMIN.password, device)).status).toBe(200);
    await server.db.update(users).set({ lockedUntil: null, failedLoginCount: 0 });
    await server.db.delete(rateLimits);
  });

  it('plain http keeps the unprefixed cookie without Secure', async () => {
    const res = await server.request('/api/login', {
      method: 'POST',
      json: { username: TEST_ADMIN.username, password: TEST_ADMIN.password },
    });
    expect(res.status).toBe(200);
    const session = res.headers.getSetCookie().find((c) => c.startsWith('ps.session_token='));
    expect(session).toBeDefined();
    expect(session).not.toMatch(/;\s*Secure/i);
  });

  it('a forwarded https header is ignored without TRUST_PROXY', async () => {
    const plain = await startTestServer();
    try {
      const res = await plain.request('/api/login', {
        method: 'POST',
        headers: { 'x-forwarded-proto': 'https' },
        json: { username: TEST_ADMIN.username, password: TEST_ADMIN.password },
      });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().some((c) => c.startsWith('ps.session_token='))).toBe(true);
    } finally {
      await plain.close();
    }
  });
});
