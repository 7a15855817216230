import { request as playwrightRequest, type Page } from '@playwright/test';
import { ADMIN, expect, test as base } from '../fixtures';

type StorageState = Awaited<ReturnType<import('@playwright/test').APIRequestContext['storageState']>>;

/**
 * Admin tests start signed in. The session is made by POST /api/login once per worker and kept
 * while it holds: each test first asks `GET /api/user` with it, and signs in again only when that
 * is refused (a sign-out, a password reset that ended every session, the e2e server's short idle
 * limit: tests/e2e/serve.mjs). A sign-in is a full-strength password hash check on the server,
 * the costliest request a test makes; asking costs a session lookup.
 */
export const test = base.extend<{ adminState: StorageState; freshAdminSession: boolean }, { adminSession: { state?: StorageState } }>({
  // Playwright reads a fixture's dependencies from this pattern: this one has none.
  // eslint-disable-next-line no-empty-pattern
  adminSession: [async ({}, use) => use({}), { scope: 'worker' }],
  /**
   * A session of the test's own, made as it starts: for tests that count from the session's last
   * activity (the server records it at most every few seconds, so a kept session's clock may
   * already have run a little).
   */
  freshAdminSession: [false, { option: true }],
  adminState: [
    async ({ adminSession, freshAdminSession }, use, testInfo) => {
      const baseURL = testInfo.project.use.baseURL!;
      const kept = freshAdminSession ? undefined : adminSession.state;
      if (kept) {
        const ctx = await playwrightRequest.newContext({ baseURL, storageState: kept });
        const still = (await ctx.get('/api/user')).ok();
        const state = await ctx.storageState();
        await ctx.dispose();
        if (still) {
          adminSession.state = state;
          return use(state);
        }
      }
      const ctx = await playwrightRequest.newContext({ baseURL });
      const res = await ctx.post('/api/login', {
        data: { username: ADMIN.username, password: ADMIN.password },
        headers: { origin: baseURL },
      });
      if (!res.ok()) throw new Error(`admin sign-in failed: ${res.status()} ${await res.text()}`);
      const state = await ctx.storageState();
      await ctx.dispose();
      adminSession.state = state;
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
