import { expect, openTab, test } from './helpers/admin';
import { axeViolations } from './axe';

const TABS = ['Contacts', 'Visits', 'Homepage', 'Services', 'Documents', 'About', 'Blog', 'Account', 'Templates', 'Company'];

for (const width of [390, 1280]) {
  test.describe(`[ADMIN][A11Y] at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });
    test.describe.configure({ timeout: 240_000 });

    test('axe finds nothing on any tab', async ({ page }) => {
      const found: string[] = [];
      for (const tab of TABS) {
        await openTab(page, tab);
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
        found.push(...(await axeViolations(page, { wcag: true, label: tab })));
      }
      expect(found).toEqual([]);
    });
  });
}

test('[ADMIN][A11Y]: every tab is reached by keyboard, and Tab moves from the tab list into its panel', async ({ page }) => {
  await openTab(page, 'Contacts');
  await page.getByRole('tab', { name: /^Contacts/ }).focus();
  for (const tab of TABS.slice(1)) {
    // Arrow keys move the focus; Enter opens the tab (manual activation: an unsaved form can
    // then ask before its tab closes, without a prompt at every arrow press).
    await page.keyboard.press('ArrowRight');
    const trigger = page.getByRole('tab', { name: tab, exact: true });
    await expect(trigger).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(trigger).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel').first()).toBeVisible();
  }
  await page.keyboard.press('Tab');
  // Focus leaves the tab list for the open (Company) panel or a control inside it.
  const inPanel = await page.evaluate(() => Boolean(document.activeElement?.closest('[role="tabpanel"]')));
  expect(inPanel).toBe(true);
});
