import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PUBLIC_PAGES } from './site-helpers';

/**
 * How every public page looks, at a phone's width and a laptop's, against committed baselines
 * (`__screenshots__/`). The content is the fresh seed (this project runs before any spec that
 * edits content: playwright.config.ts), the same on the embedded database and on Postgres; what
 * still varies between runs is masked: dates (an insight's publication date) and the footer's year.
 * Update the baselines after an intended change with `npx playwright test site-screenshots --update-snapshots`.
 */

// Twenty full-page captures on a busy two-core machine.
test.describe.configure({ timeout: 180_000 });

const WIDTHS = [390, 1280];
const fileName = (path: string, width: number) => `${path === '/' ? 'home' : path.slice(1).replaceAll('/', '-')}-${width}.png`;

/** Everything a capture depends on is in place: islands hydrated, every image loaded, at the top. */
async function settle(page: Page, path: string) {
  if (path === '/contact') {
    // The contact islands hydrate once visible: bring the info panel into view and wait for its data.
    await page.getByRole('heading', { name: 'Connect With Our Team' }).scrollIntoViewIfNeeded();
    await expect(page.getByTestId('contact-info')).toBeVisible();
  }
  await page.evaluate(async () => {
    const images = [...document.images];
    for (const img of images) img.loading = 'eager';
    await Promise.all(images.map((img) => img.decode().catch(() => undefined)));
    await document.fonts.ready;
    window.scrollTo(0, 0);
  });
}

for (const width of WIDTHS) {
  test(`[SITE][LOOK]: every public page at ${width} px matches its baseline`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    // The font is 'font-display: optional': a page keeps the fallback if the font comes late. Load it
    // once, so every page below gets it from the cache at first paint.
    await page.goto('/');
    await page.evaluate(() => document.fonts.load('700 1em "Public Sans Variable"'));
    for (const { path } of PUBLIC_PAGES) {
      await page.goto(path);
      await settle(page, path);
      await expect.soft(page, `${path} at ${width} px`).toHaveScreenshot(fileName(path, width), {
        fullPage: true,
        animations: 'disabled',
        mask: [page.locator('time'), page.locator('footer').getByText('©')],
      });
    }
  });
}
