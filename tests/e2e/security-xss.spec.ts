import type { Page } from '@playwright/test';
import { expect, test, unique } from './helpers/admin';

/** Opens a page and records anything a stored script could do there: dialogs, errors, CSP reports. */
async function visit(page: Page, path: string) {
  const events: string[] = [];
  page.on('dialog', (d) => {
    events.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => events.push(`error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') events.push(`console: ${m.text()}`);
  });
  const res = await page.goto(path);
  expect(res?.status()).toBe(200);
  await page.waitForLoadState('load');
  const ran = await page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? 0);
  return { events, ran, csp: res?.headers()['content-security-policy'] ?? '' };
}

test('[SECURITY][XSS]: an insight whose fields try to end the JSON-LD block runs nothing, live or in preview', async ({ page }) => {
  test.slow();
  const id = unique();
  const payload = (field: string) => `</script><script>window.__xss=1;alert('${field}')</script>`;
  const slug = `script-breakout-${id}`;
  const created = await page.request.post('/api/admin/insights', {
    data: {
      title: payload('title'),
      slug,
      excerpt: payload('excerpt').slice(0, 200),
      content: `${payload('content')} ${'An article body long enough to be valid. '.repeat(3)}`,
      authorName: payload('author'),
      authorTitle: payload('job'),
      tags: [payload('tag').slice(0, 50)],
      isPublished: true,
    },
  });
  expect(created.status()).toBe(201);
  const { id: insightId } = (await created.json()) as { id: number };
  try {
    await expect.poll(async () => (await page.request.get(`/insights/${slug}`)).status(), { timeout: 90_000 }).toBe(200);
    for (const path of [`/insights/${slug}`, `/preview/insights/${slug}`, '/insights']) {
      const seen = await visit(page, path);
      expect(seen.ran, path).toBe(0);
      expect(seen.events, path).toEqual([]);
      expect(seen.csp, path).toMatch(/script-src 'self'/);
    }
    // The stored text is shown as text.
    await page.goto(`/insights/${slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(payload('title'));
  } finally {
    await page.request.delete(`/api/admin/insights/${insightId}`);
  }
});
