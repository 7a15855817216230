import { readFile } from 'node:fs/promises';
import { expect, test, ADMIN } from './fixtures';
import { Authenticator, apiSignIn, disableTwoFactorIfOn, emailedCode, fillCredentials, openAccountTab, outboxFiles } from './auth-helpers';

const ADMIN_EMAIL = process.env.ADMIN_EMAIL ?? 'admin@example.com';

// Each sign-in runs scrypt (memory-hard) and these flows chain several: room for a loaded machine.
test.describe.configure({ timeout: 90_000 });

test('[AUTH][SIGN-IN]: the form checks the spec rules before asking the server', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByText('Procurement Services', { exact: true })).toBeVisible();
  await fillCredentials(page, 'ab', '12345');
  await expect(page.getByText('Username or email must be at least 3 characters.')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters.')).toBeVisible();
  // No provider is configured in e2e, so no third-party button is offered.
  await expect(page.getByRole('link', { name: /Sign in with/ })).toHaveCount(0);
});

test('[AUTH][SIGN-IN]: a wrong password shows the server message in a destructive toast', async ({ page }) => {
  await page.goto('/auth');
  await fillCredentials(page, ADMIN.username, 'definitely-wrong');
  const toast = page.getByRole('alert');
  await expect(toast).toContainText('Login failed');
  await expect(toast).toContainText('Invalid username or password');
  await expect(page).toHaveURL(/\/auth$/);
});

test('[AUTH][SIGN-IN]: sign in without 2FA, the header shows Admin and Logout, logout signs out', { tag: '@db' }, async ({ page }) => {
  await page.goto('/auth');
  await fillCredentials(page, ADMIN.username, ADMIN.password);
  await page.waitForURL('**/admin');
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Admin' })).toBeVisible();
  // Buyers never need to sign in: the header has no Login link either way, the footer does.
  await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0);
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Staff sign-in' })).toHaveAttribute('href', '/auth');
  // Signed in, /auth sends you on to /admin.
  await page.goto('/auth');
  await page.waitForURL('**/admin');

  await page.goto('/');
  await nav.getByRole('button', { name: 'Logout' }).click();
  await expect(nav.getByRole('link', { name: 'Admin' })).toBeHidden();
  await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0);
  expect((await page.request.get('/api/user')).status()).toBe(401);
  expect((await page.context().cookies()).some((c) => c.name === 'signed_in')).toBe(false);
});

test('[AUTH][SIGN-IN]: before the form has loaded its script nothing can be typed or sent', async ({ browser, baseURL }) => {
  // A click before hydration would have the browser submit the form itself, the password in a GET's URL.
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  try {
    const page = await context.newPage();
    for (const [path, button, note] of [
      ['/auth', 'Sign In', 'Signing in needs JavaScript.'],
      ['/auth/forgot', 'Send reset link', 'Asking for a link needs JavaScript.'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('button', { name: button })).toBeDisabled();
      await expect(page.locator('form')).toHaveAttribute('method', 'post');
      await expect(page.locator('noscript p')).toContainText(note);
    }
    await expect(page.getByLabel('Email')).toBeDisabled();
  } finally {
    await context.close();
  }
});

test('[AUTH][SIGN-IN]: the /auth page carries a CSP without unsafe-inline scripts', async ({ request }) => {
  const res = await request.get('/auth');
  const csp = res.headers()['content-security-policy'];
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(res.headers()['x-content-type-options']).toBe('nosniff');
});

test('[AUTH][2FA]: enable 2FA, sign in with the app code and with the e-mailed code, then disable it', async ({ page }) => {
  test.setTimeout(150_000);
  await apiSignIn(page.request, ADMIN.username, ADMIN.password);
  await openAccountTab(page);
  await expect(page.getByTestId('two-factor-status')).toHaveText('Disabled');
  await page.getByRole('button', { name: 'Enable 2FA' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const app = new Authenticator((await page.getByTestId('manual-entry-key').innerText()).replace(/\s+/g, ''));
  await page.getByLabel('Verification Code').fill(await app.code());
  await page.getByRole('button', { name: 'Verify and Enable' }).click();
  await expect(page.getByText('Two-factor authentication has been successfully enabled.')).toBeVisible();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allInnerTexts()).map((c) => c.trim());
  // Kept by download: a .txt file with every code.
  const saving = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download (.txt)' }).click();
  const file = await saving;
  expect(file.suggestedFilename()).toBe('recovery-codes.txt');
  const saved = await readFile((await file.path())!, 'utf8');
  for (const code of recovery) expect(saved).toContain(code);
  // Or copied.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy codes' }).click();
  await expect(page.getByText('Recovery codes copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(recovery[0]);
  await page.getByRole('button', { name: 'I have saved these codes' }).click();
  await expect(page.getByTestId('two-factor-status')).toHaveText('Enabled');

  try {
    // Off the back office first: on losing its session it goes to /auth by itself, which would
    // abort the test's own navigation there.
    await page.goto('about:blank');
    await page.request.post('/api/logout', { data: {} });

    // The authenticator code.
    await page.goto('/auth');
    await fillCredentials(page, ADMIN.username, ADMIN.password);
    await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible();
    const verifyButton = page.getByRole('button', { name: 'Verify Code' });
    await expect(verifyButton).toBeDisabled();
    await page.getByLabel('Verification code').fill('12ab3');
    await expect(page.getByLabel('Verification code')).toHaveValue('123');
    await expect(verifyButton).toBeDisabled();
    await page.getByRole('button', { name: 'Back to Login' }).click();
    await expect(page.getByLabel('Username or Email')).toBeVisible();
    expect((await page.request.get('/api/user')).status()).toBe(401);

    await fillCredentials(page, ADMIN.username, ADMIN.password);
    await page.getByLabel('Verification code').fill(await app.code());
    await verifyButton.click();
    await page.waitForURL('**/admin', { timeout: 20_000 });
    expect((await page.request.get('/api/user')).status()).toBe(200);
    await page.goto('about:blank');
    await page.request.post('/api/logout', { data: {} });

    // The e-mailed code, read from the local outbox: only a mail this sign-in sent counts.
    const seen = outboxFiles();
    await page.goto('/auth');
    await fillCredentials(page, ADMIN.username, ADMIN.password);
    await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible();
    await page.getByLabel('Verification code').fill(await emailedCode(ADMIN_EMAIL, seen));
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await page.waitForURL('**/admin', { timeout: 20_000 });

    // Disabled from the Account tab with the password and a code.
    await openAccountTab(page);
    await page.locator('section[aria-labelledby="two-factor-title"]').getByLabel('Current Password').fill(ADMIN.password);
    await page.getByLabel('Authentication Code').fill(await app.code());
    await page.getByRole('button', { name: 'Disable 2FA' }).click();
    await expect(page.getByText('Two-factor authentication has been disabled.')).toBeVisible();
    await expect(page.getByTestId('two-factor-status')).toHaveText('Disabled');
  } finally {
    // Whatever failed above, leave the shared admin account as other specs expect it: 2FA off.
    await disableTwoFactorIfOn(page.request, recovery);
  }
  await page.request.post('/api/logout', { data: {} });
  const plain = await apiSignIn(page.request, ADMIN.username, ADMIN.password);
  expect(plain.requires2FA).toBe(false);
});
