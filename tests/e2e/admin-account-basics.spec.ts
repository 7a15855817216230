import fs from 'node:fs';
import type { Request } from '@playwright/test';
import path from 'node:path';
import { fillCredentials, outboxFiles } from './auth-helpers';
import { ADMIN, test as anon } from './fixtures';
import { BACKGROUND_HEADER, IDLE_HEADER } from '#shared/session.ts';
import { expect, test } from './helpers/admin';
import { e2eOutbox } from './servers.mjs';
import { axeViolations } from './axe';

const ADMIN_EMAIL = process.env.ADMIN_EMAIL ?? 'admin@example.com';
const OUTBOX = e2eOutbox();

/** The reset link in the first new mail to `to` (quoted-printable undone). */
async function emailedResetLink(to: string, seen: Set<string>): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        for (const name of outboxFiles()) {
          if (seen.has(name)) continue;
          const eml = fs
            .readFileSync(path.join(OUTBOX, name), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '=');
          if (!new RegExp(`^To: ${to.replace(/[.]/g, '\\.')}`, 'm').test(eml)) continue;
          link = /(https?:\/\/\S+\/auth\/reset#token=[A-Za-z0-9_-]{43})/.exec(eml)?.[1];
          if (link) return true;
        }
        return false;
      },
      { timeout: 20_000, message: `a reset link mailed to ${to}` },
    )
    .toBe(true);
  return link!;
}

// The idle deadline counts from the session's last recorded activity: a session of its own, made as it starts.
test.describe(() => {
  test.use({ freshAdminSession: true });

  test('[ADMIN][IDLE]: two minutes before the idle sign-out a warning offers "Stay signed in"; past the deadline the back office says so', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    // The e2e server signs out after 180 s idle (tests/e2e/serve.mjs): the warning is due 60 s
    // after the last use the server recorded.
    // The page's clock is moved on instead of waiting. The back office's background polls would
    // report the server's real, unmoved clock (and rightly move the deadline back): here they do
    // not get through, as on a flaky connection.
    await page.route('**/api/**', (route) => (route.request().headers()[BACKGROUND_HEADER] ? route.abort() : route.fallback()));
    // Each answer restarts the count from the page's clock: the clock may move on only once the
    // last one is in. Waiting for the network to fall quiet is not enough on a busy machine (the
    // tab's own requests start after its code has run, which can take longer than the 500 ms
    // of quiet), so the requests that count are followed one by one.
    const pending = new Set<Request>();
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/') && !r.headers()[BACKGROUND_HEADER]) pending.add(r);
    });
    // The seconds left, as the last answer said: the server counts from the session's last
    // recorded use, which it records at most every 18 s, so this can be less than 180.
    let secondsLeft = NaN;
    let answeredAt = 0;
    page.on('requestfinished', (r) => {
      if (!pending.has(r)) return;
      void r.response().then((res) => {
        const said = res?.headers()[IDLE_HEADER];
        if (said) [secondsLeft, answeredAt] = [Number(said), Date.now()];
        pending.delete(r);
      });
    });
    page.on('requestfailed', (r) => pending.delete(r));
    await page.clock.install();
    await page.goto('/admin#homepage');
    const warning = page.getByRole('alertdialog', { name: 'You will be signed out soon' });
    await expect(page.getByText('admin (Admin)')).toBeVisible();
    // The tab's editors have their content (the last answers it asks for), and nothing is loading.
    for (const title of ['Introduction Content', 'Call to Action Section']) {
      await expect(page.getByRole('button', { name: new RegExp(`^(Edit|Create) ${title}$`) })).toBeVisible();
    }
    await expect(page.getByRole('region', { name: 'Home Feature Cards' })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await expect.poll(() => pending.size).toBe(0);
    // The page has read the last answer too (its header is read before its body).
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(secondsLeft).toBeGreaterThan(130);
    // The page's clock has gone on with the real one since that answer.
    const warnIn = (secondsLeft - 120) * 1000 - (Date.now() - answeredAt);
    await page.clock.fastForward(warnIn - 3000);
    await expect(warning).toBeHidden();
    await page.clock.fastForward(4000);
    await expect(warning).toBeVisible();
    await expect(warning).toContainText(/You will be signed out in 1:5\d/);
    expect(await axeViolations(page, { include: '[role="alertdialog"]' })).toEqual([]);

    const extended = page.waitForResponse((r) => r.url().endsWith('/api/user/keep-alive'));
    await warning.getByRole('button', { name: 'Stay signed in' }).press('Enter');
    const res = await extended;
    expect(res.status()).toBe(200);
    // The server restarted the idle window: the whole 180 s are left.
    expect(Number(res.headers()[IDLE_HEADER])).toBeGreaterThanOrEqual(175);
    await expect(warning).toBeHidden();
    expect((await page.request.get('/api/user')).status()).toBe(200);

    // Left alone past the deadline, the back office says the session ended and offers to sign in.
    await page.clock.fastForward('03:01');
    const ended = page.getByRole('alertdialog', { name: 'You have been signed out' });
    await expect(ended).toBeVisible();
    await expect(ended.getByRole('link', { name: 'Sign in again' })).toHaveAttribute('href', '/auth');
  });
});

anon('[ADMIN][SIGN-OUT]: Sign out asks first while an editor has changes, then ends the session', async ({ page }) => {
  anon.setTimeout(90_000);
  await page.goto('/auth');
  await fillCredentials(page, ADMIN.username, ADMIN.password);
  await page.waitForURL('**/admin');
  await page.getByRole('tab', { name: 'Homepage' }).click();
  const intro = page.getByRole('region', { name: 'Introduction Content' });
  await intro.getByRole('button', { name: /^(Edit|Create) Introduction Content$/ }).click();
  await intro.getByLabel('Title').fill('Typed before signing out');

  const prompt = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Keep editing' }).click();
  await expect(intro.getByLabel('Title')).toHaveValue('Typed before signing out');
  expect((await page.request.get('/api/user')).status()).toBe(200);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await prompt.getByRole('button', { name: 'Discard changes' }).click();
  await page.waitForURL('**/auth');
  expect((await page.request.get('/api/user')).status()).toBe(401);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/auth$/);
});

/**
 * The reset test changes the shared administrator's password. Whatever happens to it (a failed
 * step, a timeout on a slow machine), the password is put back afterwards: every later spec on
 * this server signs in with it, and five refused sign-ins would lock the account for ten minutes.
 */
let changedPassword: string | undefined;
anon.afterEach(async ({ playwright, baseURL }) => {
  const changed = changedPassword;
  changedPassword = undefined;
  if (!changed) return;
  const ctx = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL! } });
  try {
    const signedIn = await ctx.post('/api/login', { data: { username: ADMIN.username, password: changed } });
    // 401: the change never went through (or was already undone), and the shared password still holds.
    if (signedIn.status() === 401) return;
    expect(signedIn.status()).toBe(200);
    const restored = await ctx.post('/api/user/change-password', {
      data: { currentPassword: changed, newPassword: ADMIN.password, confirmPassword: ADMIN.password },
    });
    expect(restored.status()).toBe(200);
  } finally {
    await ctx.dispose();
  }
});

anon(
  '[AUTH][RESET]: Forgot password? e-mails a single-use link; the new password works and every session ended',
  async ({ page, browser }) => {
    anon.setTimeout(150_000);
    // Another browser signed in as the same account: the reset must end its session.
    const other = await browser.newContext();
    const signedIn = await other.request.post('/api/login', { data: { username: ADMIN.username, password: ADMIN.password } });
    expect(signedIn.status()).toBe(200);

    await page.goto('/auth');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/auth\/forgot$/);
    await expect(page.getByRole('heading', { name: 'Forgot password?' })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Email').fill('not-an-address');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();

    const seen = outboxFiles();
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Email').press('Enter');
    await expect(page.getByRole('status')).toContainText('If an account uses this e-mail address');
    const link = await emailedResetLink(ADMIN_EMAIL, seen);

    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('New Password', { exact: true }).fill('password1');
    await page.getByLabel('Confirm New Password').fill('password1');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText(/too easy to guess/)).toBeVisible();

    const newPassword = `Quiet harbor lantern ${Date.now().toString(36)}`;
    changedPassword = newPassword;
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill(newPassword);
    await page.getByLabel('Confirm New Password').press('Enter');
    await expect(page.getByRole('status')).toContainText('Your password has been changed');
    // The link is spent and gone from the address bar.
    await expect(page).toHaveURL(/\/auth\/reset$/);
    expect((await other.request.get('/api/user')).status()).toBe(401);
    await other.close();

    await page.getByRole('link', { name: 'Sign in' }).click();
    await fillCredentials(page, ADMIN.username, newPassword);
    await page.waitForURL('**/admin');
    // Put the shared test password back for the other specs.
    const restored = await page.request.post('/api/user/change-password', {
      data: { currentPassword: newPassword, newPassword: ADMIN.password, confirmPassword: ADMIN.password },
    });
    expect(restored.status()).toBe(200);
    changedPassword = undefined;

    // Used once: the same link again is refused (a fresh load: a new fragment alone loads nothing).
    await page.goto('/');
    await page.goto(link);
    await page.getByLabel('New Password', { exact: true }).fill(`${newPassword} again`);
    await page.getByLabel('Confirm New Password').fill(`${newPassword} again`);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('alert')).toContainText('expired or was already used');
  },
);
