import fs from 'node:fs';
import path from 'node:path';
import { generate } from 'otplib';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** The e2e server's local mail outbox (tests/e2e/serve.ts uses DATA_DIR=.e2e-data). */
const OUTBOX = path.resolve('.e2e-data/outbox');

/** The newest e-mailed sign-in code to `to` written after `since` (ms). */
export async function emailedCode(to: string, since: number): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        const files = fs.existsSync(OUTBOX) ? fs.readdirSync(OUTBOX).filter((f) => f.endsWith('.eml')) : [];
        const fresh = files
          .map((f) => path.join(OUTBOX, f))
          .filter((f) => fs.statSync(f).mtimeMs >= since - 1000)
          .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
        for (const file of fresh) {
          const eml = fs.readFileSync(file, 'utf8').replace(/=\r?\n/g, '');
          if (!new RegExp(`^To: ${to.replace(/[.]/g, '\\.')}`, 'm').test(eml)) continue;
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
    const current = Math.floor(Date.now() / 30_000);
    let step = Math.max(current, this.lastStep + 1);
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

/** Does this build have the back office with its Account tab? (It is built on another branch.) */
export async function hasAccountTab(page: Page): Promise<boolean> {
  const res = await page.goto('/admin');
  if (!res || res.status() !== 200) return false;
  return page
    .getByRole('tab', { name: 'Account' })
    .waitFor({ timeout: 10_000 })
    .then(() => true, () => false);
}

export async function apiSignIn(request: APIRequestContext, username: string, password: string) {
  const res = await request.post('/api/login', { data: { username, password } });
  expect(res.status()).toBe(200);
  return res.json();
}
