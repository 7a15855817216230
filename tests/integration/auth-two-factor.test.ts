import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '#server/auth/crypto.ts';
import { recoveryCodes, users } from '#server/db/schema/index.ts';
import { codeFromMail, enable2fa, lastMailTo, makeUser, passwordStep, totp } from './helpers/auth';
import { signIn, startTestServer, type TestServer } from './helpers/server';
import { bundleApi } from '../helpers/bundle';

const { advanceClock, resetClock } = bundleApi;

let server: TestServer;
let alice: { username: string; email: string; password: string };
let secret: string;
let recovery: string[];

beforeAll(async () => {
  server = await startTestServer();
  alice = await makeUser(server, 'alice', 'alice-password-1', 'admin');
  const cookie = await signIn(server, alice.username, alice.password);
  ({ secret, recoveryCodes: recovery } = await enable2fa(server, cookie));
}, 180_000);
afterAll(async () => {
  resetClock();
  await server?.close();
});

/** The code step after each test's own password step; a minute passes so the per-address allowance refills. */
async function challenge(nextMinute = true) {
  if (nextMinute) advanceClock(61_000);
  const step = await passwordStep(server, alice.username, alice.password);
  expect(step.res.status).toBe(200);
  return step;
}
const verify = (cookie: string, token: string, username = alice.username) =>
  server.request('/api/auth/2fa/verify', { method: 'POST', cookie, json: { username, token } });

describe('two-factor sign-in', { timeout: 120_000 }, () => {
  it('[AUTH][2FA]: setup gives a QR data URL and a manual key; the secret is stored encrypted; status reports it', async () => {
    const [row] = await server.db.select().from(users).where(eq(users.username, 'alice'));
    expect(row!.twoFactorEnabled).toBe(true);
    expect(row!.twoFactorSecret).not.toContain(secret);
    expect(decryptSecret(row!.twoFactorSecret!)).toBe(secret);
    expect(recovery).toHaveLength(10);
    const stored = await server.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, row!.id));
    expect(stored).toHaveLength(10);
    expect(stored.map((r) => r.codeHash)).not.toContain(recovery[0]);

    const bob = await makeUser(server, 'bob2fa', 'bob-password-1');
    const cookie = await signIn(server, bob.username, bob.password);
    const setup = await (await server.request('/api/auth/2fa/setup', { method: 'POST', json: {}, cookie })).json();
    expect(setup.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(setup.manualEntryKey.replace(/ /g, '')).toBe(setup.secret);
    const status = await (await server.request('/api/auth/2fa/status', { cookie })).json();
    expect(status).toMatchObject({ enabled: false });
    // A secret the server did not hand out is refused.
    const forged = await server.request('/api/auth/2fa/enable', {
      method: 'POST',
      cookie,
      json: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DP', token: '123456' },
    });
    expect(forged.status).toBe(400);
    const wrongCode = await server.request('/api/auth/2fa/enable', {
      method: 'POST',
      cookie,
      json: { secret: setup.secret, token: (Number(await totp(setup.secret)) ^ 1).toString().padStart(6, '0') },
    });
    expect(wrongCode.status).toBe(400);
    expect((await wrongCode.json()).message).toBe('Invalid verification code');
  });

  it('[AUTH][2FA]: a correct password gives requires2FA and no session; the e-mailed code signs in once', async () => {
    const { body, res, cookie } = await challenge();
    expect(body).toMatchObject({ success: true, requires2FA: true, user: null, twoFactorMethod: 'app' });
    expect(res.headers.getSetCookie().some((c) => c.startsWith('ps.session_token='))).toBe(false);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('ps.2fa_challenge='))).toMatch(/HttpOnly/i);
    expect((await server.request('/api/user', { cookie })).status).toBe(401);

    const code = codeFromMail((await lastMailTo(server, alice.email))?.textBody);
    const ok = await verify(cookie, code);
    expect(ok.status).toBe(200);
    const verified = await ok.json();
    expect(verified).toMatchObject({ success: true, user: { username: 'alice' } });
    const session = ok.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .filter((c) => !c!.endsWith('='))
      .join('; ');
    expect((await server.request('/api/user', { cookie: session })).status).toBe(200);
    // One use: the same challenge and code again fail.
    expect((await verify(cookie, code)).status).toBe(401);
  });

  it('[AUTH][2FA]: the authenticator code works, and a used time step cannot be replayed', async () => {
    const first = await challenge();
    const code = await totp(secret, 1);
    expect((await verify(first.cookie, code)).status).toBe(200);
    // At once, on a new challenge: the code is still inside the ±1 window, but its step is spent.
    const second = await challenge(false);
    const replay = await verify(second.cookie, code);
    expect(replay.status).toBe(401);
    expect((await replay.json()).message).toBe('Invalid verification code');
    advanceClock(30_000);
    expect((await verify(second.cookie, await totp(secret, 1))).status).toBe(200);
  });

  it('[AUTH][2FA]: username + code alone never sign in: no challenge cookie, or a challenge of another account', async () => {
    const noCookie = await verify('', await totp(secret, 1));
    expect(noCookie.status).toBe(401);
    const { cookie } = await challenge();
    const other = await makeUser(server, 'mallory', 'mallory-password', 'admin');
    const wrongAccount = await verify(cookie, codeFromMail((await lastMailTo(server, alice.email))?.textBody), other.username);
    expect(wrongAccount.status).toBe(401);
  });

  it('[AUTH][2FA]: five wrong codes void the challenge, even for the right code afterwards, and lock unknown clients out', async () => {
    // A full sign-in first ends the run of failures the earlier tests left.
    const clean = await challenge();
    expect((await verify(clean.cookie, codeFromMail((await lastMailTo(server, alice.email))?.textBody))).status).toBe(200);
    const { cookie } = await challenge();
    const code = codeFromMail((await lastMailTo(server, alice.email))?.textBody);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect((await verify(cookie, wrong)).status).toBe(401);
    advanceClock(61_000); // the per-address limit is not what stops the fifth
    const fifth = await verify(cookie, wrong);
    expect((await fifth.json()).message).toBe('Too many incorrect codes. Please sign in again.');
    expect((await verify(cookie, code)).status).toBe(401);
    // Wrong codes count like wrong passwords: five lock out browsers that never signed in here.
    advanceClock(61_000);
    expect((await passwordStep(server, alice.username, alice.password)).res.status).toBe(423);
    advanceClock(10 * 60_000);
  });

  it('[AUTH][2FA]: the challenge and the e-mailed code expire after 10 minutes', async () => {
    const { cookie } = await challenge();
    const code = codeFromMail((await lastMailTo(server, alice.email))?.textBody);
    advanceClock(10 * 60_000 + 1000);
    const late = await verify(cookie, code);
    expect(late.status).toBe(401);
    expect((await late.json()).message).toBe('Your verification step has expired. Please sign in again.');
  });

  it('[AUTH][2FA]: a recovery code signs in once', async () => {
    const a = await challenge();
    expect((await verify(a.cookie, recovery[0]!)).status).toBe(200);
    const b = await challenge();
    expect((await verify(b.cookie, recovery[0]!)).status).toBe(401);
    expect((await verify(b.cookie, recovery[1]!.toUpperCase())).status).toBe(200);
  });

  it('[AUTH][2FA]: disabling needs the current password and a valid code', async () => {
    const a = await challenge();
    const ok = await verify(a.cookie, codeFromMail((await lastMailTo(server, alice.email))?.textBody));
    const cookie = ok.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .filter((c) => !c!.endsWith('='))
      .join('; ');
    const badPw = await server.request('/api/auth/2fa/disable', {
      method: 'POST',
      cookie,
      json: { currentPassword: 'not-it-at-all', token: await totp(secret, 1) },
    });
    expect(badPw.status).toBe(400);
    expect((await badPw.json()).message).toBe('Current password is incorrect');
    const badCode = await server.request('/api/auth/2fa/disable', {
      method: 'POST',
      cookie,
      json: { currentPassword: alice.password, token: '000000' },
    });
    expect(badCode.status).toBe(400);
    advanceClock(61_000);
    const done = await server.request('/api/auth/2fa/disable', {
      method: 'POST',
      cookie,
      json: { currentPassword: alice.password, token: await totp(secret) },
    });
    expect(done.status).toBe(200);
    expect(await (await server.request('/api/auth/2fa/status', { cookie })).json()).toMatchObject({ enabled: false });
    const plain = await passwordStep(server, alice.username, alice.password);
    expect(plain.body.requires2FA).toBe(false);
    const [row] = await server.db.select().from(users).where(eq(users.username, 'alice'));
    expect(row!.twoFactorSecret).toBeNull();
  });
});
