import fs from 'node:fs';
import path from 'node:path';
import { generate } from 'otplib';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN } from './fixtures';
import { e2eOutbox } from './servers.mjs';

/** The local mail outbox of this worker's e2e server (tests/e2e/servers.mjs). */
const OUTBOX = e2eOutbox();

/** The names of the mails in the outbox now: take it before the action that sends a mail. */
export function outboxFiles(): Set<string> {
  return new Set(fs.existsSync(OUTBOX) ? fs.readdirSync(OUTBOX).filter((f) => f.endsWith('.eml')) : []);
}

/**
 * The sign-in code in the first new mail to `to`: only mails that were not in `seen` count, so a
 * code mailed by an earlier sign-in (written late by the outbox worker) is never picked up.
 */
export async function emailedCode(to: string, seen: Set<string>): Promise<string> {
  let found: string | undefined;
  const recipient = new RegExp(`^To: ${to.replace(/[.]/g, '\\.')}`, 'm');
  await expect
    .poll(
      () => {
        for (const name of outboxFiles()) {
          if (seen.has(name)) continue;
          const eml = fs.readFileSync(path.join(OUTBOX, name), 'utf8').replace(/=\r?\n/g, '');
          if (!recipient.test(eml)) continue;
          found = /verification code is (\d{6})/.exec(eml)?.[1];
          if (found) return true;
        }
        return false;
      },
      { timeout: 20_000, message: `an e-mailed code to ${to}` },
    )
    .toBe(true);
  return found!;
}

/**
 * Authenticator codes as a phone would show them, never reusing a time step the server has
 * already accepted (it refuses replays): waits for the next step when needed.
 */
export class Authenticator {
  private lastStep = -1;
  constructor(readonly secret: string) {}

  async code(): Promise<string> {
    const now = Date.now();
    const current = Math.floor(now / 30_000);
    // The server accepts the steps next to its own (30 s either way), so three codes in a row need
    // no wait when the first is the step before: unless this step ends within 10 s, when that code
    // might reach the server a step too late.
    const earliest = now % 30_000 < 20_000 ? current - 1 : current;
    let step = Math.max(earliest, this.lastStep + 1);
    if (step > current + 1) {
      await new Promise((r) => setTimeout(r, (step - 1) * 30_000 - Date.now() + 200));
      step = Math.max(Math.floor(Date.now() / 30_000), this.lastStep + 1);
    }
    this.lastStep = step;
    return generate({ secret: this.secret, epoch: step * 30 });
  }
}

export async function fillCredentials(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Opens the back office's Account tab (the page must be signed in). */
export async function openAccountTab(page: Page): Promise<void> {
  await page.goto('/admin#account');
  await page.getByRole('tab', { name: 'Account' }).click();
  await expect(page.getByTestId('two-factor-status')).toBeVisible();
}

export async function apiSignIn(request: APIRequestContext, username: string, password: string) {
  const res = await request.post('/api/login', { data: { username, password } });
  expect(res.status()).toBe(200);
  return res.json();
}

/**
 * Test clean-up: if the shared admin account still has 2FA on, signs in through the API with a
 * recovery code and turns it off with another, so one failed 2FA test cannot fail the specs after it.
 */
export async function disableTwoFactorIfOn(request: APIRequestContext, recovery: string[]): Promise<void> {
  await request.post('/api/logout', { data: {} });
  const signIn = await apiSignIn(request, ADMIN.username, ADMIN.password);
  if (!signIn.requires2FA) return;
  const [signInCode, disableCode] = recovery;
  const verified = await request.post('/api/auth/2fa/verify', { data: { username: ADMIN.username, token: signInCode } });
  expect(verified.status()).toBe(200);
  const off = await request.post('/api/auth/2fa/disable', { data: { currentPassword: ADMIN.password, token: disableCode } });
  expect(off.status()).toBe(200);
}
