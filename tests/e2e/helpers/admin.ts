import { request as playwrightRequest, type Page } from '@playwright/test';
import { ADMIN, expect, test as base } from '../fixtures';

/**
 * Admin tests sign in through POST /api/login at the start of each test (a successful sign-in
 * gives its rate-limit slot back). Not once per worker: the e2e server's idle limit is short
 * (tests/e2e/serve.ts), and a password reset test ends every session of the account.
 */
export const test = base.extend<{ adminState: Awaited<ReturnType<import('@playwright/test').APIRequestContext['storageState']>> }>({
  adminState: [
    // Playwright reads a fixture's dependencies from this pattern: this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, testInfo) => {
      const baseURL = testInfo.project.use.baseURL!;
      const ctx = await playwrightRequest.newContext({ baseURL });
      const res = await ctx.post('/api/login', {
        data: { username: ADMIN.username, password: ADMIN.password },
        headers: { origin: baseURL },
      });
      if (!res.ok()) throw new Error(`admin sign-in failed: ${res.status()} ${await res.text()}`);
      const state = await ctx.storageState();
      await ctx.dispose();
      await use(state);
    },
    { scope: 'test' },
  ],
  storageState: async ({ adminState }, use) => use(adminState),
});

export { expect };

/** Opens a back-office tab and waits for its first content. */
export async function openTab(page: Page, name: string) {
  await page.goto('/admin');
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/** The single toast currently shown. */
export function toast(page: Page) {
  return page.getByRole('region', { name: /Notifications/ }).or(page.getByLabel('Notifications (F8)'));
}

/** A unique suffix so reruns on the same data never collide. */
export const unique = () => Date.now().toString(36);

/** Puts a content record back as it was (tests leave the seeded copy for the public-page tests). */
export async function restoreRecord(
  page: Page,
  listPath: string,
  patchPath: (id: number) => string,
  id: number,
  values: Record<string, unknown>,
) {
  const list = (await (await page.request.get(listPath)).json()) as { id: number; version: number }[];
  const row = list.find((r) => r.id === id);
  if (!row) return;
  const res = await page.request.patch(patchPath(id), { data: { ...values, version: row.version } });
  expect(res.ok()).toBe(true);
}
