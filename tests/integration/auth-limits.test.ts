import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, users } from '#server/db/schema/index.ts';
import { makeUser, passwordStep } from './helpers/auth';
import { TEST_ADMIN, signIn, startTestServer, type TestServer } from './helpers/server';
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

const nextMinute = () => advanceClock(61_000);

describe('[SECURITY] brute-force limits', { timeout: 120_000 }, () => {
  it('[AUTH][RATE]: the sixth failed sign-in from one address within a minute gets 429 with Retry-After', async () => {
    nextMinute();
    for (let i = 0; i < 5; i++) expect((await passwordStep(server, `ghost-${i}`, 'wrong-password')).res.status).toBe(401);
    const sixth = await passwordStep(server, TEST_ADMIN.username, TEST_ADMIN.password);
    expect(sixth.res.status).toBe(429);
    const retry = Number(sixth.res.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    // Forged forwarding headers are dropped before Astro sees them (TRUST_PROXY is off): rotating
    // them buys no fresh allowance, the socket's address is still over its limit.
    const forged = (i: number) =>
      server.request('/api/login', {
        method: 'POST',
        json: { username: `x-user-${i}`, password: 'whatever' },
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
    for (let i = 0; i < 3; i++) expect((await forged(i)).status).toBe(429);
    nextMinute();
    expect((await passwordStep(server, TEST_ADMIN.username, TEST_ADMIN.password)).res.status).toBe(200);
  });

  it('[AUTH][RATE]: successful sign-ins give their slot back, so an office can sign in often', async () => {
    nextMinute();
    for (let i = 0; i < 8; i++) expect((await passwordStep(server, TEST_ADMIN.username, TEST_ADMIN.password)).res.status).toBe(200);
  });

  it('[AUTH][LOCKOUT]: five consecutive failures lock the account for 10 minutes and e-mail its owner', async () => {
    const bob = await makeUser(server, 'bob', 'bob-password-1');
    for (let i = 0; i < 5; i++) {
      nextMinute();
      expect((await passwordStep(server, bob.username, 'not-bobs-password')).res.status).toBe(401);
    }
    nextMinute();
    const locked = await passwordStep(server, bob.username, bob.password);
    expect(locked.res.status).toBe(423);
    expect(locked.body.message).toBe('Too many failed sign-in attempts. The account is locked for 10 minutes.');
    const mails = await server.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, bob.email));
    expect(mails.map((m) => m.kind)).toEqual(['auth.lockout']);

    advanceClock(8 * 60_000); // 9 minutes after the lock: still locked
    expect((await passwordStep(server, bob.username, bob.password)).res.status).toBe(423);
    advanceClock(2 * 60_000);
    expect((await passwordStep(server, bob.username, bob.password)).res.status).toBe(200);
    const [row] = await server.db.select().from(users).where(eq(users.username, 'bob'));
    expect(row!.failedLoginCount).toBe(0);
  });

  it('[AUTH][LOCKOUT]: a success in between resets the count: only consecutive failures lock', async () => {
    const carol = await makeUser(server, 'carol', 'carol-password-1');
    for (let i = 0; i < 4; i++) {
      nextMinute();
      await passwordStep(server, carol.username, 'wrong-password');
    }
    expect((await passwordStep(server, carol.username, carol.password)).res.status).toBe(200);
    nextMinute();
    expect((await passwordStep(server, carol.username, 'wrong-password')).res.status).toBe(401);
    expect((await passwordStep(server, carol.username, carol.password)).res.status).toBe(200);
  });

  it('[AUTH][ENUMERATION]: an unknown name "locks" exactly like a real one', async () => {
    for (let i = 0; i < 5; i++) {
      nextMinute();
      expect((await passwordStep(server, 'nonexistent', 'wrong-password')).res.status).toBe(401);
    }
    nextMinute();
    const unknown = await passwordStep(server, 'nonexistent', 'wrong-password');
    expect(unknown.res.status).toBe(423);
    expect(unknown.body.message).toBe('Too many failed sign-in attempts. The account is locked for 10 minutes.');
  });

  it('[AUTH][RATE]: password change is limited per address too', async () => {
    nextMinute();
    const dave = await makeUser(server, 'dave', 'dave-password-1');
    const cookie = await signIn(server, dave.username, dave.password);
    const attempt = () =>
      server.request('/api/user/change-password', {
        method: 'POST',
        cookie,
        json: { currentPassword: 'not-daves-pw', newPassword: 'new-password-1' },
      });
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(400);
    const res = await attempt();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
  });

  it('[AUTH][RATE]: code verification is limited per address too', async () => {
    nextMinute();
    const attempt = () => server.request('/api/auth/2fa/verify', { method: 'POST', json: { username: 'admin', token: '123456' } });
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(429);
  });
});
