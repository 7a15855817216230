import { expect, test } from './fixtures';
import { NOT_FOUND_PAGES, PUBLIC_PAGES } from './site-helpers';
import { axeViolations } from './axe';

// axe over a whole page takes 10–30 s on a busy two-core machine.
test.describe.configure({ timeout: 90_000 });

const pages = [...PUBLIC_PAGES.map((p) => p.path), ...NOT_FOUND_PAGES.map((p) => p.path)];

for (const width of [390, 1280]) {
  test.describe(`[SITE][A11Y] axe at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });
    for (const path of pages) {
      test(`${path} has no axe violations`, async ({ page }) => {
        await page.goto(path);
        if (path === '/contact') {
          // Both islands hydrate when visible: bring the info panel into view and wait for it.
          await page.getByRole('heading', { name: 'Connect With Our Team' }).scrollIntoViewIfNeeded();
          await expect(page.getByTestId('contact-info')).toBeVisible();
        }
        expect(await axeViolations(page, { wcag: true })).toEqual([]);
      });
    }
  });
}

test.describe('[SITE][A11Y] keyboard', () => {
  test('the skip link is the first stop and moves focus to the main content', async ({ page }) => {
    await page.goto('/services');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
  });

  test('focus is visible on links and buttons', async ({ page }) => {
    await page.goto('/');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const s = getComputedStyle(el);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
    });
    expect(outline.style).not.toBe('none');
    expect(outline.width).toBeGreaterThanOrEqual(2);
  });

  test('the mobile menu works by keyboard and Escape closes it', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/about');
    const toggle = page.getByRole('button', { name: 'Menu' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
  });

  test('reduced motion turns transitions and animations off', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    const duration = await page.evaluate(() => getComputedStyle(document.querySelector('#site-header')!).transitionDuration);
    expect(parseFloat(duration)).toBeLessThan(0.001);
  });
});
