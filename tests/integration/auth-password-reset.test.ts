import { Worker } from 'node:worker_threads';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, rateLimits, sessions, users, verifications } from '#server/db/schema/index.ts';
import { enable2fa, makeUser, passwordStep } from './helpers/auth';
import { signIn, startTestServer, type TestServer } from './helpers/server';
import { bundleApi } from '../helpers/bundle';

const { advanceClock, resetClock, resetRequestsSettled } = bundleApi;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 180_000);
afterAll(async () => {
  resetClock();
  await server?.close();
});
// Every request comes from 127.0.0.1: each test starts with a fresh allowance.
beforeEach(async () => {
  await server.db.delete(rateLimits);
});

/** Asks for a reset link; resolves once the answer came and the account's link (if any) is queued. */
async function forgot(email: string): Promise<Response> {
  const res = await server.request('/api/auth/forgot-password', { method: 'POST', json: { email } });
  await resetRequestsSettled();
  return res;
}
const reset = (token: string, newPassword: string) =>
  server.request('/api/auth/reset-password', { method: 'POST', json: { token, newPassword, confirmPassword: newPassword } });

const resetMails = (to: string) =>
  server.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, to), eq(mailOutbox.kind, 'auth.password-reset')));

/** The token of the newest reset link mailed to `to`. */
async function mailedToken(to: string): Promise<string> {
  const newest = (await resetMails(to)).sort((a, b) => b.id - a.id)[0];
  const token = /\/auth\/reset#token=([A-Za-z0-9_-]{43})/.exec(newest?.textBody ?? '')?.[1];
  if (!token) throw new Error(`no reset link mailed to ${to}`);
  return token;
}

const STRONG = 'Copper kettle morning drizzle';

describe('password reset by e-mailed link', { timeout: 120_000 }, () => {
  it('[AUTH][RESET]: an unknown address gets the same answer as a known one, and no mail', async () => {
    const user = await makeUser(server, 'reset-same-answer');
    const known = await forgot(user.email);
    const unknown = await forgot('nobody-at-all@example.com');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(await known.json());
    expect(await resetMails(user.email)).toHaveLength(1);
    expect(await resetMails('nobody-at-all@example.com')).toHaveLength(0);
    // Only a hash of the token is stored.
    const token = await mailedToken(user.email);
    const stored = await server.db.select().from(verifications);
    expect(stored.some((v) => v.identifier.includes(token) || v.value.includes(token))).toBe(false);
  });

  it('[SECURITY][RESET-TIMING]: a known and an unknown address are answered as fast (200 pairs, their median difference within 5 ms)', async () => {
    const user = await makeUser(server, 'reset-timing');
    // The visitor times from a thread of its own: in this process the server's work after an answer
    // would otherwise hold up the visitor's own reading of it.
    const visitor = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
      parentPort.on('message', async (email) => {
        const started = performance.now();
        const res = await fetch(workerData.url + '/api/auth/forgot-password', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: workerData.url },
          body: JSON.stringify({ email }),
        });
        await res.arrayBuffer();
        parentPort.postMessage({ ms: performance.now() - started, status: res.status });
      });`,
      { eval: true, workerData: { url: server.url } },
    );
    const timed = async (email: string) => {
      advanceClock(16 * 60_000); // a fresh allowance for this address each time
      const answer = await new Promise<{ ms: number; status: number }>((resolve) => {
        visitor.once('message', resolve);
        visitor.postMessage(email);
      });
      expect(answer.status).toBe(200);
      await resetRequestsSettled();
      return answer.ms;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    try {
      for (let i = 0; i < 200; i++) {
        known.push(await timed(user.email));
        unknown.push(await timed(`nobody-${i}@example.com`));
      }
    } finally {
      await visitor.terminate();
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    // Each known address's request is paired with the unknown one sent right after it, so a busy
    // machine slows both of a pair alike; the median of the pairs' differences is what a prober
    // could learn. It must stay within 5 ms (or a tenth of an answer's time, on a machine so busy
    // that answers take over 50 ms): sending the mail before answering would add tens of ms.
    const gap = median(known.map((k, i) => k - unknown[i]!));
    const typical = median([...known, ...unknown]);
    console.log(
      `forgot password: median ${median(known).toFixed(1)} ms known, ${median(unknown).toFixed(1)} ms unknown, paired difference ${gap.toFixed(1)} ms`,
    );
    expect(Math.abs(gap)).toBeLessThan(Math.max(5, typical / 10));
    // The links were still sent, after the answers.
    expect((await resetMails(user.email)).length).toBeGreaterThan(0);
  });

  it('[AUTH][RESET]: the link sets a new password once, ends every session and lifts the lockout; a weak password keeps the link', async () => {
    const user = await makeUser(server, 'reset-flow', 'old-password-for-reset');
    const cookieA = await signIn(server, user.username, user.password);
    const cookieB = await signIn(server, user.username, user.password);
    await server.db.update(users).set({ failedLoginCount: 4 }).where(eq(users.username, user.username));
    await forgot(user.email.toUpperCase());
    const token = await mailedToken(user.email);

    const weak = await reset(token, 'password1');
    expect(weak.status).toBe(400);
    expect((await weak.json()).message).toMatch(/too easy to guess/);
    const mismatch = await server.request('/api/auth/reset-password', {
      method: 'POST',
      json: { token, newPassword: STRONG, confirmPassword: `${STRONG}!` },
    });
    expect(mismatch.status).toBe(400);
    expect((await mismatch.json()).message).toBe("Passwords don't match");

    const ok = await reset(token, STRONG);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ success: true });
    for (const cookie of [cookieA, cookieB]) expect((await server.request('/api/user', { cookie })).status).toBe(401);
    const [row] = await server.db.select().from(users).where(eq(users.username, user.username));
    expect(row!.failedLoginCount).toBe(0);
    expect(await server.db.select().from(sessions).where(eq(sessions.userId, row!.id))).toHaveLength(0);

    const again = await reset(token, `${STRONG} again`);
    expect(again.status).toBe(400);
    expect((await again.json()).message).toMatch(/expired or was already used/);
    expect((await passwordStep(server, user.username, user.password)).res.status).toBe(401);
    expect((await passwordStep(server, user.username, STRONG)).res.status).toBe(200);

    const audit = await server.db.select().from(auditLog).where(eq(auditLog.entityId, row!.id));
    expect(audit.map((a) => `${a.action} ${a.entity}`).sort()).toEqual(['create password_reset', 'update password']);
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('[SECURITY][AUTH][RESET]: a reset to the current password is refused and keeps the link', async () => {
    const current = 'Violet harbor lanterns glowing';
    const user = await makeUser(server, 'reset-same', current);
    await forgot(user.email);
    const token = await mailedToken(user.email);
    const same = await reset(token, current);
    expect([same.status, (await same.json()).message]).toEqual([400, 'New password must be different from the current password']);
    expect((await reset(token, STRONG)).status).toBe(200);
    expect((await passwordStep(server, user.username, STRONG)).res.status).toBe(200);
  });

  it('[AUTH][RESET]: a link older than 30 minutes is refused; a newer link replaces an older one', async () => {
    const user = await makeUser(server, 'reset-expiry');
    await forgot(user.email);
    const first = await mailedToken(user.email);
    await forgot(user.email);
    const second = await mailedToken(user.email);
    expect(second).not.toBe(first);
    expect((await reset(first, STRONG)).status).toBe(400);
    advanceClock(31 * 60_000);
    try {
      const late = await reset(second, STRONG);
      expect(late.status).toBe(400);
      expect((await late.json()).message).toMatch(/expired or was already used/);
    } finally {
      resetClock();
    }
    expect((await passwordStep(server, user.username, user.password)).res.status).toBe(200);
  });

  it('[AUTH][RESET]: two-factor is still asked at the next sign-in', async () => {
    const user = await makeUser(server, 'reset-2fa', 'user-password-2fa', 'admin');
    await enable2fa(server, await signIn(server, user.username, user.password));
    await forgot(user.email);
    expect((await reset(await mailedToken(user.email), STRONG)).status).toBe(200);
    const next = await passwordStep(server, user.username, STRONG);
    expect(next.res.status).toBe(200);
    expect(next.body).toMatchObject({ requires2FA: true, user: null });
  });

  it('[AUTH][RESET]: requests are rate-limited per address (429) and per account (no more mail, same answer)', async () => {
    const user = await makeUser(server, 'reset-limits');
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await forgot(user.email));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // Three links an hour per account: the fourth and fifth requests sent nothing.
    expect(await resetMails(user.email)).toHaveLength(3);
    const limited = await forgot(user.email);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await limited.json()).message).toMatch(/Too many password reset requests/);
  });

  it('[AUTH][RESET]: bad input is a 400 that changes nothing; unknown tokens use up the allowance', async () => {
    expect((await forgot('not-an-email')).status).toBe(400);
    expect((await forgot(`${'a'.repeat(250)}@example.com`)).status).toBe(400);
    const short = await server.request('/api/auth/reset-password', { method: 'POST', json: { token: 'abc', newPassword: STRONG } });
    expect(short.status).toBe(400);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await reset('x'.repeat(43), STRONG)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });
});
