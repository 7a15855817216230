import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const idleSeconds = (res: Response) => Number(res.headers.get('x-session-idle-seconds'));

describe('idle sign-out warning support', { timeout: 120_000 }, () => {
  it('[AUTH][IDLE]: signed-in answers say the seconds left; background polls do not count as use; keep-alive restarts the window', async () => {
    const cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
    const first = await server.request('/api/user', { cookie });
    expect(idleSeconds(first)).toBeGreaterThan(1790);
    expect(idleSeconds(first)).toBeLessThanOrEqual(1800);
    expect((await server.request('/api/user')).headers.get('x-session-idle-seconds')).toBeNull();

    advanceClock(20 * 60_000);
    const polled = await server.request('/api/user', { cookie, headers: { 'x-background-refresh': '1' } });
    expect(polled.status).toBe(200);
    expect(idleSeconds(polled)).toBeLessThanOrEqual(600);
    expect(idleSeconds(polled)).toBeGreaterThan(590);

    advanceClock(9 * 60_000);
    const extended = await server.request('/api/user/keep-alive', { method: 'POST', json: {}, cookie });
    expect(extended.status).toBe(200);
    expect((await extended.json()).idleSeconds).toBeGreaterThan(1790);
    expect(idleSeconds(extended)).toBeGreaterThan(1790);

    // Past what would have been the end without 'Stay signed in': still signed in.
    advanceClock(5 * 60_000);
    expect((await server.request('/api/user', { cookie, headers: { 'x-background-refresh': '1' } })).status).toBe(200);
    // Only polls for 30 minutes: the session ends.
    advanceClock(26 * 60_000);
    expect((await server.request('/api/user', { cookie, headers: { 'x-background-refresh': '1' } })).status).toBe(401);
    expect((await server.request('/api/user/keep-alive', { method: 'POST', json: {}, cookie })).status).toBe(401);
  });
});
