/**
 * Lockout that strangers cannot turn against the owner (device cookies): a browser that signed in
 * before keeps getting in while unknown clients are locked; two-factor failures count; the owner
 * is mailed at most once a day; a challenge never takes more than five guesses, even at once.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '#server/db/schema/index.ts';
import { codeFromMail, enable2fa, lastMailTo, makeUser, passwordStep } from './helpers/auth';
import { startTestServer, type TestServer } from './helpers/server';
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

/** Each attempt in a fresh minute, so the per-address allowance never interferes. */
const nextMinute = () => advanceClock(61_000);
const deviceOf = (cookie: string) => cookie.split('; ').find((c) => c.startsWith('ps.device=')) ?? '';
const login = (username: string, password: string, cookie?: string) =>
  server.request('/api/login', { method: 'POST', json: { username, password }, cookie });
const lockouts = async (email: string) =>
  (await server.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).filter((m) => m.kind === 'auth.lockout');

describe('lockout with device cookies', { timeout: 120_000 }, () => {
  it('[SECURITY][LOCKOUT]: strangers locking the account out do not keep the owner out of a browser that signed in before', async () => {
    const owner = await makeUser(server, 'owner1', 'owner-password-1');
    nextMinute();
    const first = await passwordStep(server, owner.username, owner.password);
    expect(first.res.status).toBe(200);
    const device = deviceOf(first.cookie);
    expect(device).toMatch(/^ps\.device=/);
    expect(first.res.headers.getSetCookie().find((c) => c.startsWith('ps.device='))).toMatch(/HttpOnly/);

    for (let i = 0; i < 5; i++) {
      nextMinute();
      expect((await login(owner.username, 'a-stranger-guess')).status).toBe(401);
    }
    nextMinute();
    expect((await login(owner.username, owner.password)).status).toBe(423); // unknown clients: locked
    nextMinute();
    expect((await login(owner.username, owner.password, device)).status).toBe(200); // the owner's browser: in

    // A forged or foreign device cookie is an unknown client.
    nextMinute();
    expect(
      (
        await login(
          owner.username,
          owner.password,
          device.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        )
      ).status,
    ).toBe(423);
    const other = await makeUser(server, 'other1', 'other-password-1');
    nextMinute();
    const otherDevice = deviceOf((await passwordStep(server, other.username, other.password)).cookie);
    nextMinute();
    expect((await login(owner.username, owner.password, otherDevice)).status).toBe(423);
  });

  it('[SECURITY][LOCKOUT]: a known browser that fails five times is locked on its own, not the account', async () => {
    const owner = await makeUser(server, 'owner2', 'owner-password-2');
    nextMinute();
    const device = deviceOf((await passwordStep(server, owner.username, owner.password)).cookie);
    for (let i = 0; i < 5; i++) {
      nextMinute();
      expect((await login(owner.username, 'typo-password', device)).status).toBe(401);
    }
    nextMinute();
    expect((await login(owner.username, owner.password, device)).status).toBe(423);
    nextMinute();
    expect((await login(owner.username, owner.password)).status).toBe(200);
    advanceClock(10 * 60_000);
    expect((await login(owner.username, owner.password, device)).status).toBe(200);
  });

  it('[SECURITY][LOCKOUT]: repeated lockouts mail the owner once a day, not every ten minutes', async () => {
    const owner = await makeUser(server, 'owner3', 'owner-password-3');
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++) {
        nextMinute();
        expect((await login(owner.username, 'a-stranger-guess')).status).toBe(401);
      }
      nextMinute();
      expect((await login(owner.username, 'a-stranger-guess')).status).toBe(423);
      advanceClock(10 * 60_000);
    }
    expect(await lockouts(owner.email)).toHaveLength(1);
    advanceClock(24 * 3600_000);
    for (let i = 0; i < 5; i++) {
      nextMinute();
      await login(owner.username, 'a-stranger-guess');
    }
    expect(await lockouts(owner.email)).toHaveLength(2);
  });

  it('[SECURITY][LOCKOUT]: wrong two-factor codes count towards the lockout', async () => {
    const owner = await makeUser(server, 'owner4', 'owner-password-4');
    nextMinute();
    await enable2fa(server, (await passwordStep(server, owner.username, owner.password)).cookie);
    // Someone who has the password but not the second factor, from an unknown browser.
    for (let i = 0; i < 5; i++) {
      nextMinute();
      const step = await passwordStep(server, owner.username, owner.password);
      expect(step.body.requires2FA).toBe(true);
      const res = await server.request('/api/auth/2fa/verify', {
        method: 'POST',
        cookie: step.cookie,
        json: { username: owner.username, token: '000000' },
      });
      expect(res.status).toBe(401);
    }
    nextMinute();
    expect((await login(owner.username, owner.password)).status).toBe(423);
  });

  it('[SECURITY][2FA]: concurrent guesses on one challenge get five tries at most', async () => {
    const owner = await makeUser(server, 'owner5', 'owner-password-5');
    nextMinute();
    const device = deviceOf((await passwordStep(server, owner.username, owner.password)).cookie);
    await enable2fa(server, (await passwordStep(server, owner.username, owner.password)).cookie);
    nextMinute();
    const step = await passwordStep(server, owner.username, owner.password);
    const cookie = `${step.cookie}; ${device}`;
    const code = codeFromMail((await lastMailTo(server, owner.email))?.textBody ?? undefined);
    const wrong = code === '111111' ? '222222' : '111111';
    const guess = (token: string) =>
      server
        .request('/api/auth/2fa/verify', { method: 'POST', cookie, json: { username: owner.username, token } })
        .then(async (r) => ({ status: r.status, ...(await r.json()) }));
    for (let i = 0; i < 4; i++) expect((await guess(wrong)).message).toBe('Invalid verification code');
    // One guess is left: five at the same moment may not all be checked.
    nextMinute();
    const answers = await Promise.all(Array.from({ length: 5 }, () => guess(wrong)));
    const checked = answers.filter(
      (a) => a.message === 'Invalid verification code' || a.message === 'Too many incorrect codes. Please sign in again.',
    );
    expect(checked).toHaveLength(1);
    nextMinute();
    expect((await guess(code)).status).toBe(401);
  });
});
