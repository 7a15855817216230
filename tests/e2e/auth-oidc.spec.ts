import crypto from 'node:crypto';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { OidcProviders, TENANT, type OidcProviderName, type TokenEvent } from '../helpers/oidc-provider';
import { Authenticator } from './auth-helpers';
import { ADMIN, expect, test } from './fixtures';
import { startOwnServer, type OwnServer } from './helpers/own-server';
import { e2ePort } from './servers.mjs';

/*
 * Sign-in with Google and with Microsoft, end to end in the browser, against real OpenID Connect
 * providers (tests/helpers/oidc-provider-process.mjs) that this file's own server is pointed at through the
 * operator's settings (GOOGLE_DISCOVERY_URL, MICROSOFT_AUTHORITY…). Each refusal is shown to be
 * this site's: the provider's token log says the code was never redeemed, or that the provider did
 * issue the tokens; the untampered answer (and a token re-signed with the right issuer) signs in.
 */

test.describe.configure({ mode: 'serial', timeout: 60_000 });

/** A slot far above the parallel workers' (tests/e2e/servers.mjs), so its port and data are its own. */
const SLOT = 91;
const URL_ = `http://localhost:${e2ePort(SLOT)}`;
const ADMIN_EMAIL = process.env.ADMIN_EMAIL ?? 'admin@example.com';
const LABEL: Record<OidcProviderName, string> = { google: 'Google', microsoft: 'Microsoft' };
const REFUSED = 'The sign-in with the provider could not be completed. Please try again.';

let server: OwnServer | undefined;
let providers: OidcProviders;

test.beforeAll(async () => {
  test.setTimeout(200_000);
  providers = await OidcProviders.start([URL_]);
  server = await startOwnServer(SLOT, providers.env());
});

test.afterAll(async () => {
  await server?.stop();
  await providers?.stop();
});

/** A browser of its own (no cookies) on this file's server. */
async function fresh(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: URL_ });
  return { context, page: await context.newPage() };
}

/** From the sign-in page to the provider's, where it asks who you are (signed out there first). */
async function toProvider(page: Page, provider: OidcProviderName): Promise<void> {
  await page.context().clearCookies({ domain: '127.0.0.1' });
  await page.goto('/auth');
  await page.getByRole('link', { name: `Sign in with ${LABEL[provider]}` }).click();
  await expect(page.getByRole('heading', { name: `Sign in to ${provider}` })).toBeVisible();
}

/** Signs in at the provider as `email`. */
async function atProvider(page: Page, email: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * Signs in at the provider, whose answer stops there instead of coming back to this site: the
 * callback URL (code, state, iss) it carried, not yet sent to the server.
 */
async function heldCallback(page: Page, email: string): Promise<URL> {
  await providers.holdNextAnswer();
  await atProvider(page, email);
  await expect(page.getByText('Answer held')).toBeVisible();
  return providers.heldAnswer();
}

function withParam(url: URL, name: string, value: string): string {
  const copy = new URL(url);
  copy.searchParams.set(name, value);
  return copy.href;
}

/** The token requests the providers answered after `before` of them. */
async function tokenEventsSince(before: number): Promise<TokenEvent[]> {
  return (await providers.events()).slice(before);
}

/** Where a sign-in ends: the back office, or the sign-in page saying why not. */
async function settled(page: Page): Promise<URL> {
  await page.waitForURL((url) => url.pathname === '/admin' || (url.pathname === '/auth' && url.search !== ''));
  return new URL(page.url());
}

const LINK_BUTTON = /^Link (Google|Microsoft) and Sign In$/;

/**
 * The first sign-in of a provider account into an existing account asks for that account's
 * password once (the link step); later ones do not. Passes it when it is asked.
 */
async function linkIfAsked(page: Page): Promise<void> {
  if ((await settled(page)).searchParams.get('step') !== 'link') return;
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: LINK_BUTTON }).click();
  // Signed in (the back office), or the code step in its place.
  await expect(page.getByLabel('Password')).toBeHidden();
}

async function expectSignedIn(page: Page): Promise<void> {
  await linkIfAsked(page);
  expect((await settled(page)).pathname).toBe('/admin');
  const me = await page.request.get('/api/user');
  expect(me.status()).toBe(200);
  expect((await me.json()).user.username).toBe(ADMIN.username);
}

async function expectRefused(page: Page, message = REFUSED): Promise<void> {
  expect((await settled(page)).searchParams.get('error')).toBeTruthy();
  await expect(page.getByRole('alert').filter({ hasText: message }).first()).toBeVisible();
  expect((await page.request.get('/api/user')).status()).toBe(401);
}

test('[AUTH][OIDC]: the provider buttons appear only for the providers that are configured', async ({ page, browser }) => {
  // The shared e2e server configures none.
  await page.goto('/auth');
  await expect(page.getByLabel('Username or Email')).toBeVisible();
  await expect(page.getByRole('link', { name: /Sign in with/ })).toHaveCount(0);
  expect((await (await page.request.get('/api/auth/providers')).json()).providers).toEqual([]);
  expect((await page.request.get('/api/auth/google', { maxRedirects: 0 })).status()).toBe(404);

  const own = await fresh(browser);
  await own.page.goto('/auth');
  await expect(own.page.getByRole('link', { name: 'Sign in with Google' })).toHaveAttribute('href', '/api/auth/google');
  await expect(own.page.getByRole('link', { name: 'Sign in with Microsoft' })).toHaveAttribute('href', '/api/auth/microsoft');
  await own.context.close();
});

for (const provider of ['google', 'microsoft'] as const) {
  test(`[SECURITY][AUTH][OIDC]: a known account signs in with ${LABEL[provider]} after its password links them once; its ID token bound to a nonce`, async ({
    browser,
  }) => {
    const { context, page } = await fresh(browser);
    const before = (await providers.events()).length;
    await toProvider(page, provider);
    await atProvider(page, ADMIN_EMAIL);
    // Never seen before: no session yet, the account's password first.
    const at = await settled(page);
    expect(Object.fromEntries(at.searchParams)).toEqual({ step: 'link', provider });
    await expect(page.getByText(`An account here already uses the e-mail address of your ${LABEL[provider]} account.`)).toBeVisible();
    expect((await page.request.get('/api/user')).status()).toBe(401);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: LINK_BUTTON }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid username or password' }).first()).toBeVisible();
    expect((await page.request.get('/api/user')).status()).toBe(401);
    await expectSignedIn(page);
    await page.getByRole('tab', { name: 'Account' }).click();
    const linked = page.getByRole('region', { name: 'Linked Sign-ins' });
    await expect(linked.getByText(LABEL[provider], { exact: true })).toBeVisible();
    const [token] = await tokenEventsSince(before);
    expect(token).toMatchObject({ provider, type: 'token', forged: false });
    expect(token!.nonce, 'the authorization request carried a nonce').toMatch(/^[\w-]{32}$/);
    await context.close();
  });
}

test('[SECURITY][AUTH][OIDC]: an e-mail address no account uses is refused with a clear message', async ({ browser }) => {
  const { context, page } = await fresh(browser);
  // tests/integration/auth-oidc.test.ts reads the database: no account was made.
  await toProvider(page, 'google');
  await atProvider(page, 'stranger@example.com');
  await expectRefused(page, 'No account here uses that e-mail address. Ask an administrator to create one.');
  await context.close();
});

test('[SECURITY][AUTH][OIDC]: a tampered state is refused before the code is redeemed; the untampered answer signs in, and cannot be replayed', async ({
  browser,
}) => {
  const { context, page } = await fresh(browser);
  await toProvider(page, 'google');
  const callback = await heldCallback(page, ADMIN_EMAIL);
  const before = (await providers.events()).length;

  await page.goto(withParam(callback, 'state', crypto.randomBytes(24).toString('base64url')));
  await expectRefused(page);
  expect(await tokenEventsSince(before), 'the code was never sent to the provider').toEqual([]);

  // The same answer untampered: the code and the browser's state were good.
  await page.goto(callback.href);
  await expectSignedIn(page);
  expect(await tokenEventsSince(before)).toHaveLength(1);

  // Replayed after signing out: its state is spent, so the code is not even tried again. The
  // back office is left first: once signed out it sends itself to /auth, which could land after
  // the replay's own answer.
  await page.goto('about:blank');
  expect((await page.request.post('/api/logout', { data: {}, headers: { origin: URL_ } })).status()).toBe(200);
  await page.goto(callback.href);
  await expectRefused(page);
  expect(await tokenEventsSince(before), 'the replayed code was never sent to the provider').toHaveLength(1);

  // The spent code under a fresh sign-in's state: the provider refuses to redeem it again (and
  // PKCE binds it to the first sign-in), so no one is signed in.
  await toProvider(page, 'google');
  const second = await heldCallback(page, ADMIN_EMAIL);
  const beforeReplay = (await providers.events()).length;
  await page.goto(withParam(second, 'code', callback.searchParams.get('code')!));
  await expectRefused(page);
  expect(await tokenEventsSince(beforeReplay)).toEqual([{ provider: 'google', type: 'token-error', error: 'invalid_grant' }]);
  await context.close();
});

test('[SECURITY][AUTH][OIDC]: an answer naming another issuer (RFC 9207 iss) is refused before the code is redeemed', async ({
  browser,
}) => {
  const { context, page } = await fresh(browser);
  await toProvider(page, 'google');
  const callback = await heldCallback(page, ADMIN_EMAIL);
  expect(callback.searchParams.get('iss')).toBe(`${providers.url}/google`);
  const before = (await providers.events()).length;

  await page.goto(withParam(callback, 'iss', `${providers.url}/elsewhere`));
  await expectRefused(page);
  // Unchecked, the code would have been redeemed: the provider would log a token request.
  expect(await tokenEventsSince(before)).toEqual([]);
  await context.close();
});

test('[SECURITY][AUTH][OIDC]: a nonce changed on its way to the provider is refused, though the provider issued the tokens', async ({
  browser,
}) => {
  const { context, page } = await fresh(browser);
  const tampered = crypto.randomBytes(24).toString('base64url');
  // The sign-in starts here as the button would (its state cookie goes to this browser); the way
  // to the provider is then taken with another nonce in the authorization request.
  const start = await page.request.get('/api/auth/google', { maxRedirects: 0 });
  expect(start.status()).toBe(302);
  const authorize = new URL(start.headers()['location']!);
  expect(authorize.searchParams.get('nonce')).toMatch(/^[\w-]{32}$/);
  authorize.searchParams.set('nonce', tampered);
  await page.goto(authorize.href);
  await expect(page.getByRole('heading', { name: 'Sign in to google' })).toBeVisible();
  const before = (await providers.events()).length;
  await atProvider(page, ADMIN_EMAIL);
  await expectRefused(page);
  // The provider redeemed the code and signed an ID token for the nonce it was given.
  expect(await tokenEventsSince(before)).toEqual([
    { provider: 'google', type: 'token', iss: `${providers.url}/google`, nonce: tampered, forged: false },
  ]);
  await context.close();
});

test('[SECURITY][AUTH][OIDC]: an ID token signed with the provider key but naming another issuer is refused', async ({ browser }) => {
  const { context, page } = await fresh(browser);
  const cases = [
    { provider: 'google', claims: { iss: `${providers.url}/elsewhere` } },
    // Another tenant's issuer and tid: this site names its own tenant.
    {
      provider: 'microsoft',
      claims: {
        iss: `${providers.microsoftAuthority}/00000000-1111-4222-8333-444444444444/v2.0`,
        tid: '00000000-1111-4222-8333-444444444444',
      },
    },
  ] as const;
  for (const { provider, claims } of cases) {
    const before = (await providers.events()).length;
    await providers.forgeNextIdToken(provider, claims);
    await toProvider(page, provider);
    await atProvider(page, ADMIN_EMAIL);
    await expectRefused(page);
    expect(await tokenEventsSince(before)).toEqual([expect.objectContaining({ provider, type: 'token', iss: claims.iss, forged: true })]);
  }
  // Signed again the same way with the right issuer, the token is taken: the key and the
  // re-signing are sound, the issuer alone was refused.
  const before = (await providers.events()).length;
  await providers.forgeNextIdToken('microsoft', { iss: `${providers.microsoftAuthority}/${TENANT}/v2.0`, name: 'Re-signed' });
  await toProvider(page, 'microsoft');
  await atProvider(page, ADMIN_EMAIL);
  await expectSignedIn(page);
  expect(await tokenEventsSince(before)).toEqual([expect.objectContaining({ provider: 'microsoft', forged: true })]);
  await context.close();
});

test('[SECURITY][AUTH][OIDC]: an account with two factors still asks for its code after the provider sign-in', async ({ browser }) => {
  const { context, page } = await fresh(browser);
  const headers = { origin: URL_ };
  expect((await page.request.post('/api/login', { data: { username: ADMIN.username, password: ADMIN.password }, headers })).status()).toBe(
    200,
  );
  const setup = await (await page.request.post('/api/auth/2fa/setup', { data: {}, headers })).json();
  const app = new Authenticator(setup.secret);
  expect(
    (await page.request.post('/api/auth/2fa/enable', { data: { secret: setup.secret, token: await app.code() }, headers })).status(),
  ).toBe(200);
  expect((await page.request.post('/api/logout', { data: {}, headers })).status()).toBe(200);

  await toProvider(page, 'microsoft');
  await atProvider(page, ADMIN_EMAIL);
  await linkIfAsked(page);
  await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/auth');
  expect((await page.request.get('/api/user')).status()).toBe(401);
  await page.getByLabel('Verification code').fill(await app.code());
  await page.getByRole('button', { name: 'Verify Code' }).click();
  await page.waitForURL('**/admin');
  await expectSignedIn(page);
  await context.close();
});
