import { expect, test } from './fixtures';

test('[SECURITY][HEADERS]: sign-in and back office are never cached, name no canonical address, and pages allow no <base>', async ({
  page,
  request,
}) => {
  for (const path of ['/auth', '/admin']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()['cache-control'], path).toBe('no-store');
    expect(res.headers()['content-security-policy'], path).toContain("base-uri 'none'");
  }
  await page.goto('/auth');
  await expect(page.locator('link[rel=canonical]')).toHaveCount(0);
  await expect(page.locator('meta[name=robots]')).toHaveAttribute('content', 'noindex');
  const about = await request.get('/about');
  expect(about.headers()['cache-control']).toContain('must-revalidate');
});
