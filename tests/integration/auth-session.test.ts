import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '#server/db/schema/index.ts';
import { makeUser, passwordStep } from './helpers/auth';
import { TEST_ADMIN, cookieHeader, signIn, startTestServer, type TestServer } from './helpers/server';
import { bundleApi } from '../helpers/bundle';

const { advanceClock, resetClock } = bundleApi;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 180_000);
afterAll(async () => {
  resetClock();
  await server?.close();
});

describe('sign-in and sessions', { timeout: 120_000 }, () => {
  it('[AUTH][LOGIN]: a correct password answers the spec shape and sets an HttpOnly session cookie plus the header hint', async () => {
    const { res, body } = await passwordStep(server, TEST_ADMIN.username, TEST_ADMIN.password);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      message: 'Login successful',
      requires2FA: false,
      user: { username: 'admin', role: 'admin' },
    });
    expect(JSON.stringify(body)).not.toMatch(/password|twoFactorSecret|scrypt/i);
    const setCookies = res.headers.getSetCookie();
    const session = setCookies.find((c) => c.startsWith('ps.session_token='));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/Max-Age=43200/);
    const hint = setCookies.find((c) => c.startsWith('signed_in=1'));
    expect(hint).toBeDefined();
    expect(hint).not.toMatch(/HttpOnly/i);
    expect(hint).toMatch(/Max-Age=43200/);
  });

  it('[AUTH][LOGIN]: signs in by e-mail too, case-insensitively', async () => {
    const { res } = await passwordStep(server, TEST_ADMIN.email.toUpperCase(), TEST_ADMIN.password);
    expect(res.status).toBe(200);
  });

  it('[AUTH][USER]: GET /api/user answers the user with a session and 401 without', async () => {
    const cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
    const res = await server.request('/api/user', { cookie });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.user).toMatchObject({ username: 'admin', role: 'admin', twoFactorEnabled: false });
    expect(body.user.lastLoginAt).toBeTruthy();
    expect((await server.request('/api/user')).status).toBe(401);
    expect((await server.request('/api/user', { cookie: 'ps.session_token=forged.value' })).status).toBe(401);
  });

  it('[AUTH][ENUMERATION]: an unknown user and a wrong password get the same answer', async () => {
    const a = await passwordStep(server, 'nobody-here', 'whatever-pw');
    const b = await passwordStep(server, TEST_ADMIN.username, 'wrong-password');
    expect(a.res.status).toBe(401);
    expect(b.res.status).toBe(401);
    expect(a.body).toEqual(b.body);
    expect(a.body).toEqual({ message: 'Invalid username or password' });
    await server.db.update(users).set({ failedLoginCount: 0 }).where(eq(users.username, 'admin'));
  });

  it('[AUTH][VALIDATION]: the spec messages for short fields, 415 for a non-JSON body', async () => {
    const short = await server.request('/api/login', { method: 'POST', json: { username: 'ab', password: 'secret1' } });
    expect(short.status).toBe(400);
    expect((await short.json()).message).toBe('Username or email must be at least 3 characters.');
    const pw = await server.request('/api/login', { method: 'POST', json: { username: 'admin', password: '12345' } });
    expect((await pw.json()).message).toBe('Password must be at least 6 characters.');
    const form = await server.request('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: 'username=admin&password=integration-admin-pw',
    });
    expect(form.status).toBe(415);
  });

  it('[AUTH][LOGOUT]: logout ends the session on the server and clears both cookies', async () => {
    const cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
    const out = await server.request('/api/logout', { method: 'POST', json: {}, cookie });
    expect(out.status).toBe(200);
    const cleared = out.headers.getSetCookie();
    expect(cleared.find((c) => c.startsWith('ps.session_token='))).toMatch(/Max-Age=0/i);
    expect(cleared.find((c) => c.startsWith('signed_in='))).toMatch(/Max-Age=0/i);
    // The old cookie, replayed, is worthless: the row is gone.
    expect((await server.request('/api/user', { cookie })).status).toBe(401);
  });

  it('[AUTH][LOGOUT]: a logout without a body is accepted from the site, and refused cross-site', async () => {
    const cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
    const cross = await server.request('/api/logout', { method: 'POST', cookie, headers: { origin: 'https://evil.example' } });
    expect(cross.status).toBe(403);
    const res = await server.request('/api/logout', { method: 'POST', cookie, headers: { origin: server.url } });
    expect(res.status).toBe(200);
    expect((await server.request('/api/user', { cookie })).status).toBe(401);
  });

  it('[AUTH][CSRF]: a cross-site logout or login is refused', async () => {
    const cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
    const res = await server.request('/api/logout', { method: 'POST', json: {}, cookie, headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect((await server.request('/api/user', { cookie })).status).toBe(200);
  });

  it('[AUTH][IDLE]: a session ends after 30 minutes without use, and the invalid cookie is cleared', async () => {
    const cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
    advanceClock(29 * 60_000);
    expect((await server.request('/api/user', { cookie })).status).toBe(200);
    advanceClock(29 * 60_000); // 58 min since sign-in, 29 since last use: still alive
    expect((await server.request('/api/user', { cookie })).status).toBe(200);
    advanceClock(31 * 60_000);
    const res = await server.request('/api/user', { cookie });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('signed_in='))).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
  });

  it('[AUTH][MAX-AGE]: a session in constant use still ends 12 hours after sign-in', async () => {
    const cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
    for (let elapsed = 0; elapsed < 11.5 * 60; elapsed += 25) {
      advanceClock(25 * 60_000);
      expect((await server.request('/api/user', { cookie })).status).toBe(200);
    }
    // 11 h 40 min so far; 25 more minutes is past 12 hours while the idle gap stays under 30.
    advanceClock(25 * 60_000);
    expect((await server.request('/api/user', { cookie })).status).toBe(401);
  });

  it('[AUTH][PASSWORD]: changing the password needs the current one and ends every other session', async () => {
    const account = await makeUser(server, 'pwchanger', 'first-password-1');
    const mine = await signIn(server, account.username, account.password);
    const other = await signIn(server, account.username, account.password);
    const admin = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);

    const wrong = await server.request('/api/user/change-password', {
      method: 'POST',
      cookie: mine,
      json: { currentPassword: 'nope-nope', newPassword: 'second-password-2' },
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toBe('Current password is incorrect');
    const short = await server.request('/api/user/change-password', {
      method: 'POST',
      cookie: mine,
      json: { currentPassword: account.password, newPassword: 'short7c' },
    });
    expect(short.status).toBe(400);
    expect((await short.json()).message).toBe('New password must be at least 8 characters');
    // Long enough but easy to guess: common passwords, blanks, the account's own name with digits.
    for (const weak of ['password', '12345678', '        ', 'pwchanger1', 'pwchanger2026']) {
      const res = await server.request('/api/user/change-password', {
        method: 'POST',
        cookie: mine,
        json: { currentPassword: account.password, newPassword: weak },
      });
      expect(res.status, weak).toBe(400);
      expect((await res.json()).message, weak).toMatch(/too easy to guess|not only spaces/);
    }

    const ok = await server.request('/api/user/change-password', {
      method: 'POST',
      cookie: mine,
      json: { currentPassword: account.password, newPassword: 'second-password-2', confirmPassword: 'second-password-2' },
    });
    expect(ok.status).toBe(200);
    expect((await server.request('/api/user', { cookie: mine })).status).toBe(200);
    expect((await server.request('/api/user', { cookie: other })).status).toBe(401);
    expect((await server.request('/api/user', { cookie: admin })).status).toBe(200); // someone else's session is untouched
    expect((await passwordStep(server, account.username, account.password)).res.status).toBe(401);
    expect((await passwordStep(server, account.username, 'second-password-2')).res.status).toBe(200);
    const [row] = await server.db.select().from(sessions).limit(1);
    expect(row).toBeDefined();
  });

  it('[AUTH][REGISTER]: registration is closed unless ALLOW_REGISTRATION=true', async () => {
    const res = await server.request('/api/register', {
      method: 'POST',
      json: { username: 'newbie', email: 'newbie@example.com', password: 'newbie-password' },
    });
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe('Registration is closed');
  });

  it('[AUTH][HEADERS]: API answers carry the security headers', async () => {
    const res = await server.request('/api/user');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('[AUTH][SIGNIN-HELPER]: cookieHeader keeps the session cookie and the hint', async () => {
    const res = await server.request('/api/login', {
      method: 'POST',
      json: { username: TEST_ADMIN.username, password: TEST_ADMIN.password },
    });
    expect(cookieHeader(res)).toMatch(/ps\.session_token=.+; signed_in=1/);
  });
});
