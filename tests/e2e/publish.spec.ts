import { ADMIN, expect, test } from './fixtures';

type Status = { state: string; lastPublishedAt: string | null; lastDurationMs: number | null; lastError: string | null };

test('[ADMIN][PUBLISH]: publish now rebuilds the pages and the status shows when', { tag: '@db' }, async ({ request, page }) => {
  expect((await request.get('/api/admin/publish/status')).status()).toBe(401);
  expect((await request.post('/api/login', { data: ADMIN })).status()).toBe(200);
  const before = (await (await request.get('/api/admin/publish/status')).json()) as Status;
  expect(before).toMatchObject({ state: 'idle', lastError: null });
  expect(before.lastPublishedAt).not.toBeNull();

  const res = await request.post('/api/admin/publish');
  expect(res.status()).toBe(202);
  expect(['queued', 'building']).toContain(((await res.json()) as Status).state);
  await expect
    .poll(async () => ((await (await request.get('/api/admin/publish/status')).json()) as Status).state, { timeout: 60_000 })
    .toBe('idle');
  const after = (await (await request.get('/api/admin/publish/status')).json()) as Status;
  expect(Date.parse(after.lastPublishedAt!)).toBeGreaterThan(Date.parse(before.lastPublishedAt!));
  expect(after.lastDurationMs).toBeGreaterThan(0);

  const home = await page.goto('/');
  expect(home?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('[ADMIN][PREVIEW]: signed out, the preview sends the browser to sign in', async ({ page }) => {
  await page.goto('/preview/insights/any-insight');
  await expect(page).toHaveURL(/\/auth$/);
});

test('[ADMIN][PREVIEW]: an administrator gets a never-indexed, never-cached preview page', { tag: '@db' }, async ({ page }) => {
  expect((await page.request.post('/api/login', { data: ADMIN })).status()).toBe(200);
  const res = await page.goto('/preview/insights/no-such-insight');
  expect(res?.status()).toBe(404);
  expect(res?.headers()['cache-control']).toBe('no-store');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Insight Not Found');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expect(page.getByRole('link', { name: 'Back to Insights' })).toHaveAttribute('href', '/insights');
});
