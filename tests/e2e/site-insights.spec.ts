import type { Page } from '@playwright/test';
import { STARTING_INSIGHTS } from '#server/services/starting-insights.ts';
import { FEATURED_INSIGHT_LINKS } from '#shared/site-config.ts';
import { expect, test } from './helpers/admin';
import { axeViolations } from './axe';

/** The fixed link cards under "Popular Topics" on /insights. */
const cards = (page: Page) => page.getByRole('heading', { name: 'Popular Topics' }).locator('xpath=following-sibling::ul[1]/li');

test.describe('[SITE][INSIGHTS] the starting articles behind the fixed cards', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('each fixed card on /insights opens its published article', async ({ page }) => {
    for (const link of FEATURED_INSIGHT_LINKS) {
      const article = STARTING_INSIGHTS.find((i) => i.slug === link.slug)!;
      await page.goto('/insights');
      await cards(page).getByRole('link', { name: link.title }).click();
      await expect(page).toHaveURL(new RegExp(`/insights/${link.slug}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(article.title);
      await expect(page.getByText(`${article.readMinutes} min read`)).toBeVisible();
    }
  });

  test('an article page has no axe violations', async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`/insights/${STARTING_INSIGHTS[0]!.slug}`);
    expect(await axeViolations(page, { wcag: true })).toEqual([]);
  });
});

test(
  '[SITE][INSIGHTS] an unpublished article: its card falls back to its fallback link after the rebuild',
  { tag: '@db' },
  async ({ page, browser }) => {
    // Two rebuilds, each up to 90 s on a loaded 2-core machine.
    test.setTimeout(420_000);
    const link = FEATURED_INSIGHT_LINKS[FEATURED_INSIGHT_LINKS.length - 1]!;
    const article = STARTING_INSIGHTS.find((i) => i.slug === link.slug)!;
    const setPublished = async (on: boolean) => {
      const list = (await (await page.request.get('/api/admin/insights')).json()) as { id: number; slug: string; version: number }[];
      const row = list.find((r) => r.slug === link.slug)!;
      const res = await page.request.patch(`/api/admin/insights/${row.id}`, {
        data: { isPublished: on, publicationDate: on ? article.publicationDate : null, version: row.version },
      });
      expect(res.ok()).toBe(true);
    };
    const visitor = await browser.newPage({ storageState: { cookies: [], origins: [] } });
    const cardHref = async (href: string) => {
      await expect(async () => {
        await visitor.goto('/insights');
        await expect(cards(visitor).getByRole('link', { name: link.title })).toHaveAttribute('href', href, { timeout: 1000 });
      }).toPass({ timeout: 200_000, intervals: [1000, 2000] });
    };

    await setPublished(false);
    try {
      await cardHref(link.fallback);
    } finally {
      await setPublished(true);
    }
    await cardHref(`/insights/${link.slug}`);
    await visitor.close();
  },
);

test.describe('[SITE][SEARCH] the insights search box', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('asks nothing until one types; results as one types, announced, by keyboard; axe clean', { tag: '@db' }, async ({ page }) => {
    test.setTimeout(90_000);
    const searches: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/insights/search') searches.push(new URL(r.url()).searchParams.get('q') ?? '');
    });
    await page.goto('/insights');
    const box = page.getByRole('searchbox', { name: 'Search insights' });
    await box.focus();
    await page.waitForLoadState('networkidle');
    expect(searches).toEqual([]);

    const status = page.getByRole('status');
    const results = page.getByRole('region', { name: 'Search Results' });
    await box.pressSequentially('vetting', { delay: 30 });
    await expect(status).toHaveText('1 article matches “vetting”.');
    // Asked a moment after the last key, not at every key.
    expect(searches.length).toBeLessThan(7);
    const first = results.getByRole('link', { name: 'Supplier Vetting Best Practices for Federal Buyers' });
    await expect(first).toHaveAttribute('href', '/insights/supplier-vetting-best-practices');
    await expect(results.locator('mark').first()).toBeVisible();
    expect(await axeViolations(page, { wcag: true })).toEqual([]);

    await box.fill('xylophonequartz');
    await expect(status).toHaveText('No articles match “xylophonequartz”.');
    await expect(results.getByRole('listitem')).toHaveCount(0);

    await box.fill('');
    await box.pressSequentially('procurement costs', { delay: 20 });
    await expect(status).toContainText('match “procurement costs”');
    await expect(results.getByRole('link', { name: 'Reducing Procurement Costs Without Cutting Corners' })).toBeVisible();
    // From the box, Tab reaches the first result; Enter opens it.
    await box.focus();
    await page.keyboard.press('Tab');
    await expect(results.getByRole('link').first()).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/insights\/[a-z0-9-]+$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // Clearing the box (Escape in a search field) hides the results.
    await page.goBack();
    await box.fill('vetting');
    await expect(status).toHaveText('1 article matches “vetting”.');
    await box.press('Escape');
    await expect(results).toBeHidden();
    await expect(status).toHaveText('');
  });

  test('on a phone the results fit the screen', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/insights');
    await page.getByRole('searchbox', { name: 'Search insights' }).fill('federal');
    await expect(page.getByRole('status')).toContainText('match “federal”');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test('when the server cannot search, the box still filters the articles on the page and says so', async ({ page }) => {
    await page.route('**/api/insights/search*', (route) => route.fulfill({ status: 503, body: '' }));
    await page.goto('/insights');
    await page.getByRole('searchbox', { name: 'Search insights' }).fill('zzqqxx');
    await expect(page.getByRole('status')).toHaveText('Search is not available right now: showing the matching articles on this page.');
    await expect(page.getByText('No insights match your search.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Search Results' })).toBeHidden();
  });
});

test(
  '[SITE][SEARCH] an article is found once published, and its title shows as text, never as markup',
  { tag: '@db' },
  async ({ page, browser }) => {
    test.setTimeout(240_000);
    const title = `<img src=x onerror="window.__searchXss=1">Zebrafinch survey ${Date.now().toString(36)}`;
    const created = await page.request.post('/api/admin/insights', {
      data: {
        title,
        category: 'research',
        slug: `zebrafinch-${Date.now().toString(36)}`,
        excerpt: 'A survey of <b>zebrafinch</b> procurement.',
        content: 'Zebrafinch <script>window.__searchXss=2</script> counts by agency, region and year of award.',
        readMinutes: 2,
        authorName: 'Jane Doe',
        authorTitle: 'Analyst',
        isPublished: true,
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const visitor = await browser.newPage({ storageState: { cookies: [], origins: [] } });
    try {
      const results = visitor.getByRole('region', { name: 'Search Results' });
      await expect(async () => {
        await visitor.goto('/insights');
        await visitor.getByRole('searchbox', { name: 'Search insights' }).fill('zebrafinch');
        await expect(results.getByRole('link', { name: title })).toBeVisible({ timeout: 2000 });
      }).toPass({ timeout: 200_000, intervals: [1000, 2000] });
      await expect(results.locator('img')).toHaveCount(0);
      await expect(results.locator('script')).toHaveCount(0);
      expect(await visitor.evaluate(() => (window as { __searchXss?: number }).__searchXss)).toBeUndefined();
    } finally {
      await visitor.close();
      expect((await page.request.delete(`/api/admin/insights/${id}`)).ok()).toBe(true);
    }
  },
);
