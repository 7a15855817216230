import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, users } from '#server/db/schema/index.ts';
import { OidcProviders, type OidcProviderName } from '../helpers/oidc-provider';
import { TEST_ADMIN, cookieHeader, startTestServer, type TestServer } from './helpers/server';
import { resetEnvCache } from '../helpers/bundle';

/*
 * Provider sign-in and who gets an account, read from the database: the browser flows are in
 * tests/e2e/auth-oidc.spec.ts. Here two servers differ in ALLOW_REGISTRATION alone, which the
 * end-to-end suite would pay a server start for; the sign-in runs over HTTP as a browser would.
 */

const SITE = process.env.SITE_URL ?? 'http://localhost:4321';

let providers: OidcProviders;
let saved: NodeJS.ProcessEnv;

beforeAll(async () => {
  saved = { ...process.env };
  providers = await OidcProviders.start([SITE]);
  Object.assign(process.env, providers.env());
  resetEnvCache();
}, 60_000);

afterAll(async () => {
  process.env = saved;
  resetEnvCache();
  await providers?.stop();
});

/**
 * The whole provider sign-in as a browser makes it: the button's redirect, the provider's pages
 * (its cookies kept), signing in there as `email`, and the answer brought back to this server.
 * Returns this server's answer to the callback.
 */
async function providerSignIn(server: TestServer, provider: OidcProviderName, email: string): Promise<Response> {
  const start = await server.request(`/api/auth/${provider}`);
  expect(start.status).toBe(302);
  const siteCookies = cookieHeader(start);
  const jar = new Map<string, string>();
  let url = start.headers.get('location')!;
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(`${SITE}/`)) {
      const callback = new URL(url);
      return server.request(callback.pathname + callback.search, { cookie: siteCookies });
    }
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      body: form,
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
      redirect: 'manual',
    });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0]!;
      const at = pair.indexOf('=');
      if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    // The provider's sign-in page: its form posts back to the same address.
    form = res.status === 200 ? new URLSearchParams({ email }) : undefined;
    if (!form) url = new URL(res.headers.get('location')!, url).href;
  }
  throw new Error('the provider sign-in did not come back');
}

const userByEmail = async (server: TestServer, email: string) => (await server.db.select().from(users).where(eq(users.email, email)))[0];

describe('provider sign-in with registration closed', { timeout: 60_000 }, () => {
  let server: TestServer;
  beforeAll(async () => {
    delete process.env.ALLOW_REGISTRATION;
    resetEnvCache();
    server = await startTestServer();
  }, 180_000);
  afterAll(() => server?.close());

  it('[SECURITY][AUTH][OIDC]: an address no account uses is refused and no account is made', async () => {
    for (const provider of ['google', 'microsoft'] as const) {
      const res = await providerSignIn(server, provider, 'stranger@example.com');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/auth?error=signup_disabled');
      expect(res.headers.getSetCookie().some((c) => /session_token=[^;]/.test(c))).toBe(false);
    }
    expect(await userByEmail(server, 'stranger@example.com')).toBeUndefined();
  });

  it('[AUTH][OIDC]: a known address signs into its account, which the provider account is linked to', async () => {
    const res = await providerSignIn(server, 'google', TEST_ADMIN.email);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin');
    const me = await server.request('/api/user', { cookie: cookieHeader(res) });
    expect(me.status).toBe(200);
    expect((await me.json()).user.username).toBe(TEST_ADMIN.username);
    const admin = await userByEmail(server, TEST_ADMIN.email);
    const linked = await server.db.select().from(accounts).where(eq(accounts.userId, admin!.id));
    expect(linked.map((a) => a.providerId).sort()).toEqual(['credential', 'google']);
  });
});

describe('provider sign-in with registration open', { timeout: 60_000 }, () => {
  let server: TestServer;
  beforeAll(async () => {
    process.env.ALLOW_REGISTRATION = 'true';
    resetEnvCache();
    server = await startTestServer();
  }, 180_000);
  afterAll(async () => {
    delete process.env.ALLOW_REGISTRATION;
    resetEnvCache();
    await server?.close();
  });

  it('[AUTH][OIDC]: an address no account uses gets a new account, role user, signed in', async () => {
    const res = await providerSignIn(server, 'microsoft', 'newcomer@example.com');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin');
    const user = await userByEmail(server, 'newcomer@example.com');
    expect(user).toMatchObject({ role: 'user' });
    const linked = await server.db.select().from(accounts).where(eq(accounts.userId, user!.id));
    expect(linked.map((a) => a.providerId)).toEqual(['microsoft']);
    expect((await server.request('/api/user', { cookie: cookieHeader(res) })).status).toBe(200);
  });
});
