import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, mailOutbox, users } from '#server/db/schema/index.ts';
import { OidcProviders, type OidcProviderName } from '../helpers/oidc-provider';
import { TEST_ADMIN, cookieHeader, signIn, startTestServer, type TestServer } from './helpers/server';
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

  const providerRows = async () =>
    (await server.db.select().from(accounts)).filter((a) => a.providerId !== 'credential').map((a) => a.providerId);
  const mailsOf = async (kind: string) => server.db.select().from(mailOutbox).where(eq(mailOutbox.kind, kind));
  const auditOf = async (action: string) =>
    server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'sign-in provider'), eq(auditLog.action, action)));
  const hasSession = (res: Response) => res.headers.getSetCookie().some((c) => /session_token=[^;]/.test(c));
  const linkCookieOf = (res: Response) =>
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('ps.provider_link=') && c.length > 'ps.provider_link='.length);

  it('[SECURITY][AUTH][OIDC]: a token whose address is not marked verified never signs in (false, missing, other case), for any provider', async () => {
    const cases: [OidcProviderName, Record<string, unknown>][] = [
      ['google', { email_verified: false }],
      ['google', { email_verified: null }],
      ['google', { email: 'Admin@Example.com', email_verified: false }],
      ['google', { email_verified: 'false' }],
      ['microsoft', { email_verified: false }],
      ['microsoft', { email_verified: null }],
    ];
    for (const [provider, claims] of cases) {
      await providers.forgeNextIdToken(provider, claims);
      const res = await providerSignIn(server, provider, TEST_ADMIN.email);
      expect(res.status, JSON.stringify(claims)).toBe(302);
      const to = new URL(res.headers.get('location')!, SITE);
      expect([to.pathname, to.searchParams.get('error')], `${provider} ${JSON.stringify(claims)}`).toEqual(['/auth', 'email_not_verified']);
      expect(hasSession(res)).toBe(false);
      expect(linkCookieOf(res)).toBeUndefined();
    }
    expect(await providerRows()).toEqual([]);
    expect(await auditOf('create')).toEqual([]);
    expect(await mailsOf('auth.provider-linked')).toEqual([]);
  });

  it('[SECURITY][AUTH][OIDC]: a verified address of a provider account never seen before (any case) asks for the password, and only the right one links it', async () => {
    await providers.forgeNextIdToken('google', { email: 'ADMIN@example.COM', email_verified: true });
    const res = await providerSignIn(server, 'google', TEST_ADMIN.email);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth?step=link&provider=google');
    expect(hasSession(res)).toBe(false);
    const link = linkCookieOf(res)!;
    const set = res.headers.getSetCookie().find((c) => c.startsWith('ps.provider_link='))!;
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Strict');
    expect(await providerRows()).toEqual([]);

    const linkStep = (password: string, cookie?: string) =>
      server.request('/api/auth/link', { method: 'POST', json: { password }, ...(cookie ? { cookie } : {}) });
    // Without the cookie of that sign-in, or with a wrong password: nothing is linked, no session.
    const alone = await linkStep(TEST_ADMIN.password);
    expect([alone.status, (await alone.json()).message]).toEqual([400, 'This sign-in has expired. Sign in with the provider again.']);
    const wrong = await linkStep('not-the-password', link);
    expect([wrong.status, (await wrong.json()).message]).toEqual([401, 'Invalid username or password']);
    expect(hasSession(wrong)).toBe(false);
    expect((await linkStep('', link)).status).toBe(400);
    expect(await providerRows()).toEqual([]);

    const right = await linkStep(TEST_ADMIN.password, link);
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ success: true, requires2FA: false, user: { username: TEST_ADMIN.username } });
    expect((await server.request('/api/user', { cookie: cookieHeader(right) })).status).toBe(200);
    expect(await providerRows()).toEqual(['google']);
    const [audit] = await auditOf('create');
    expect(audit).toMatchObject({ actorName: TEST_ADMIN.username, subject: `Google sign-in of ${TEST_ADMIN.username}` });
    const [mail] = await mailsOf('auth.provider-linked');
    expect(mail).toMatchObject({ toAddress: TEST_ADMIN.email, subject: 'A Google sign-in was linked to your account' });
    // The held link is spent.
    expect((await linkStep(TEST_ADMIN.password, link)).status).toBe(400);

    // From now on that Google account signs in directly, as long as it says the address is verified.
    const again = await providerSignIn(server, 'google', TEST_ADMIN.email);
    expect(again.headers.get('location')).toBe('/admin');
    await providers.forgeNextIdToken('google', { email_verified: false });
    const unverified = await providerSignIn(server, 'google', TEST_ADMIN.email);
    expect(new URL(unverified.headers.get('location')!, SITE).searchParams.get('error')).toBe('email_not_verified');
    expect(hasSession(unverified)).toBe(false);
  });

  it('[SECURITY][AUTH][OIDC]: the Account tab lists the linked sign-ins; removing one is audited, mailed, and the next sign-in asks again', async () => {
    expect((await server.request('/api/user/identities')).status).toBe(401);
    const cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
    const listed = await (await server.request('/api/user/identities', { cookie })).json();
    expect(listed.identities).toEqual([{ id: expect.any(String), provider: 'google', name: 'Google', linkedAt: expect.any(String) }]);
    const [credential] = (await server.db.select().from(accounts)).filter((a) => a.providerId === 'credential');
    // The password is not a linked sign-in; an unknown id is not found.
    for (const id of [credential!.id, 'no-such-link', '../etc']) {
      expect((await server.request(`/api/user/identities/${encodeURIComponent(id)}`, { method: 'DELETE', json: {}, cookie })).status).toBe(
        404,
      );
    }
    const id = listed.identities[0].id as string;
    expect((await server.request(`/api/user/identities/${id}`, { method: 'DELETE', json: {} })).status).toBe(401);
    const removed = await server.request(`/api/user/identities/${id}`, { method: 'DELETE', json: {}, cookie });
    expect(removed.status).toBe(200);
    expect(await providerRows()).toEqual([]);
    expect(await auditOf('delete')).toHaveLength(1);
    expect((await mailsOf('auth.provider-unlinked')).map((m) => m.toAddress)).toEqual([TEST_ADMIN.email]);
    const next = await providerSignIn(server, 'google', TEST_ADMIN.email);
    expect(next.headers.get('location')).toBe('/auth?step=link&provider=google');
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

  it('[AUTH][OIDC]: an address no account uses gets a new account, role user, signed in; its only sign-in cannot be removed', async () => {
    const res = await providerSignIn(server, 'microsoft', 'newcomer@example.com');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin');
    const user = await userByEmail(server, 'newcomer@example.com');
    expect(user).toMatchObject({ role: 'user' });
    const linked = await server.db.select().from(accounts).where(eq(accounts.userId, user!.id));
    expect(linked.map((a) => a.providerId)).toEqual(['microsoft']);
    const cookie = cookieHeader(res);
    expect((await server.request('/api/user', { cookie })).status).toBe(200);
    // Its only way in (it has no password) is not removed.
    const removal = await server.request(`/api/user/identities/${linked[0]!.id}`, { method: 'DELETE', json: {}, cookie });
    expect([removal.status, (await removal.json()).message]).toEqual([
      409,
      'This is the only way to sign into the account: it cannot be removed.',
    ]);
    expect(await server.db.select().from(accounts).where(eq(accounts.userId, user!.id))).toHaveLength(1);
  });
});
