import type { Page } from '@playwright/test';
import { STARTING_INSIGHTS } from '#server/db/starting-insights.ts';
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

test('[SITE][INSIGHTS] an unpublished article: its card falls back to its fallback link after the rebuild', async ({ page, browser }) => {
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
});
