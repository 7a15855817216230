import type { Page } from '@playwright/test';
import { expect, openTab, restoreRecord, test, toast, unique } from './helpers/admin';
import { axeViolations } from './axe';

/** Every back-office tab, as its trigger is named. */
const TABS = ['Contacts', 'Visits', 'Homepage', 'Services', 'Documents', 'About', 'Blog', 'Account', 'Templates', 'Company'];

/**
 * What sticks out sideways: the page's own scroll width, and every element that is drawn past the
 * viewport's right or left edge. Elements clipped by an ancestor (visually hidden table headers,
 * a scrolling region's contents) are not seen, so they do not count.
 */
async function sideways(page: Page) {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    const vw = root.clientWidth;
    const clipped = (el: Element): boolean => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible' || s.clipPath !== 'none') return a.getBoundingClientRect().right <= vw + 1;
      }
      return false;
    };
    const wide: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || (r.right <= vw + 1 && r.left >= -1)) continue;
      if (clipped(el)) continue;
      wide.push(
        `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(r.left)}..${Math.round(r.right)}`,
      );
    }
    return { scrollWidth: root.scrollWidth, clientWidth: vw, wide: wide.slice(0, 10) };
  });
}

/** Controls a finger must hit that are smaller than 44 px in either direction. */
async function smallTargets(page: Page, scope: string) {
  return page.evaluate((sel) => {
    const small: string[] = [];
    const controls = document.querySelectorAll(
      `${sel} :is(button, [role="tab"], [role="switch"], select, input:not([type="hidden"], [type="file"]), textarea)`,
    );
    for (const el of controls) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if (r.height < 44 || r.width < 44) {
        const name = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 30);
        small.push(`${el.tagName.toLowerCase()} "${name}" ${Math.round(r.width)}x${Math.round(r.height)}`);
      }
    }
    return small;
  }, scope);
}

async function settle(page: Page) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

test.describe('[ADMIN][PHONE] at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test.describe.configure({ timeout: 120_000 });

  test('no tab scrolls sideways, and every control is at least 44 px', async ({ page }) => {
    // A submission with long words, so the Contacts list has a row to lay out.
    const sent = await page.request.post('/api/contact', {
      data: {
        name: 'Phone Layout Buyer',
        email: 'procurement.officer.with.a.long.address@veterans-affairs.agency.gov',
        company: 'Department of Veterans Affairs',
        message: 'We need forty laptops by June, with TAA documentation.',
        elapsedMs: 10_000,
      },
    });
    expect(sent.status()).toBe(201);
    // An uploaded image's long path on the Homepage tab: it wraps rather than widening the page.
    const header = await (await page.request.get('/api/content/header/active')).json();
    const longPath = `/uploads/images/${'a-very-long-uploaded-file-name-'.repeat(4)}0123456789abcdef.jpg`;
    expect(
      (await page.request.patch(`/api/content/header/${header.id}`, { data: { backgroundImage: longPath, version: header.version } })).ok(),
    ).toBe(true);

    await openTab(page, 'Contacts');
    const tabs = page.getByRole('tablist', { name: 'Back office sections' }).getByRole('tab');
    for (const tab of TABS) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      await settle(page);
      const result = await sideways(page);
      expect(result.scrollWidth, tab).toBeLessThanOrEqual(result.clientWidth);
      expect(result.wide, tab).toEqual([]);
      expect(await smallTargets(page, 'main'), tab).toEqual([]);
      // A compact header that scrolls away, and the tabs in one row (scrolling sideways on their own).
      const bar = page.getByRole('banner');
      expect((await bar.boundingBox())!.height, tab).toBeLessThanOrEqual(64);
      expect(await bar.evaluate((el) => getComputedStyle(el).position), tab).not.toMatch(/sticky|fixed/);
      const tops = await tabs.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
      expect(new Set(tops).size, tab).toBe(1);
      await expect(page.getByRole('tab', { name: tab })).toBeInViewport();
    }
    await restoreRecord(page, '/api/content/header', (id) => `/api/content/header/${id}`, header.id, {
      backgroundImage: header.backgroundImage,
    });

    // The header's status and account controls open from Menu.
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    expect(await axeViolations(page, { label: 'menu open 390' })).toEqual([]);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeHidden();

    // The long Company form keeps its Save bar on screen wherever the owner is in it.
    await page.getByRole('tab', { name: 'Company' }).click();
    await page.getByRole('button', { name: 'Edit Company Profile' }).click();
    const save = page.getByRole('button', { name: 'Save Changes' });
    await expect(save).toBeInViewport();
    await page.getByLabel('Legal name').focus();
    await expect(save).toBeInViewport();
    await page.mouse.wheel(0, 2500);
    await expect(save).toBeInViewport();
    const box = (await save.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    expect((await sideways(page)).wide).toEqual([]);
    await page.getByRole('button', { name: 'Cancel' }).click();

    // Signing out from the Menu: the sign-in page says it happened.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/auth');
    await expect(page.getByRole('status').filter({ hasText: 'You have been signed out' })).toBeVisible();
  });

  test('from the setup checklist, a save without a connection says so, keeps the typing, goes through once the connection is back and returns to the checklist', async ({
    page,
    context,
  }) => {
    const before = await (await page.request.get('/api/admin/company-profile')).json();
    await openTab(page, 'Company');
    // The setup checklist's link opens the form at the missing field.
    const checklist = page.locator('section[aria-labelledby="setup-checklist-title"]');
    await checklist.getByRole('link', { name: 'Add it in Company' }).first().click();
    await expect(page.getByLabel('UEI (optional)')).toBeFocused();
    const tagline = `Sourcing that arrives on time ${unique()}`;
    await page.getByLabel('Tagline (optional)').fill(tagline);
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByRole('button', { name: 'Saving…' })).toBeVisible();
    const stalled = page.getByRole('status').filter({ hasText: 'Still saving… check your connection' });
    await expect(stalled).toBeVisible({ timeout: 15_000 });
    // Retry while still offline: the save keeps waiting and the typing stays.
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(stalled).toBeVisible();
    await expect(page.getByLabel('Tagline (optional)')).toHaveValue(tagline);
    await context.setOffline(false);
    await expect(toast(page)).toContainText('Company profile updated', { timeout: 15_000 });
    await expect(page.getByRole('button', { name: 'Edit Company Profile' })).toBeVisible();
    // Saved from the checklist's link: back at the checklist.
    await expect(page.locator('#setup-checklist-title')).toBeInViewport();
    await expect(page.getByText(tagline)).toBeAttached();
    const saved = await (await page.request.get('/api/admin/company-profile')).json();
    expect(saved.tagline).toBe(tagline);
    const res = await page.request.patch('/api/admin/company-profile', { data: { tagline: before.tagline, version: saved.version } });
    expect(res.ok()).toBe(true);
  });

  test('list tables become stacked cards', async ({ page }) => {
    await openTab(page, 'Blog');
    await settle(page);
    const row = page.getByRole('row').filter({ hasText: 'Reducing Procurement Costs' });
    await expect(row).toBeVisible();
    // A card: the row is as wide as its table, and the category sits under the title, not beside it.
    const [title, category] = await Promise.all([
      row.getByRole('cell').first().boundingBox(),
      row.getByRole('cell', { name: /Expert Advice|Industry Spotlights|Market Analysis|Case Studies|Research/ }).boundingBox(),
    ]);
    expect(category!.y).toBeGreaterThan(title!.y + title!.height - 1);
    expect(Math.abs(category!.x - title!.x)).toBeLessThan(2);
  });

  test('dialogs fill the screen and do not scroll sideways', async ({ page }) => {
    const dialogs: [tab: string, opener: string, name: string][] = [
      ['Blog', 'New Insight', 'New Insight'],
      ['Documents', 'Upload Document', 'Upload Document'],
      ['Templates', 'New Template', 'New Email Template'],
      ['Homepage', 'Add Feature', 'Add Feature'],
    ];
    for (const [tab, opener, name] of dialogs) {
      await openTab(page, tab);
      await settle(page);
      await page.getByRole('button', { name: opener, exact: true }).first().click();
      const dialog = page.getByRole('dialog', { name });
      await expect(dialog).toBeVisible();
      const box = (await dialog.boundingBox())!;
      expect(box.x, name).toBe(0);
      expect(box.width, name).toBe(390);
      expect(box.height, name).toBe(844);
      const result = await sideways(page);
      expect(result.wide, name).toEqual([]);
      expect(await smallTargets(page, '[role="dialog"]'), name).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
  });
});

test('[ADMIN][PHONE]: at 320 px (the narrowest phone) and 768 px (a tablet) no tab and no open form scrolls sideways', async ({ page }) => {
  test.setTimeout(120_000);
  for (const width of [320, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin');
    for (const tab of TABS) {
      await page.getByRole('tab', { name: tab }).click();
      await settle(page);
      expect(await sideways(page), `${width} ${tab}`).toMatchObject({ wide: [] });
    }
    // The longest form, open.
    await page.getByRole('tab', { name: 'Company' }).click();
    await page.getByRole('button', { name: 'Edit Company Profile' }).click();
    await expect(page.getByRole('button', { name: 'Save Changes' })).toBeVisible();
    expect(await sideways(page), `${width} Company form`).toMatchObject({ wide: [] });
    await page.getByRole('button', { name: 'Cancel' }).click();
  }
});

test.describe('[ADMIN][DESKTOP] at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('the Blog table has room: headers on one line, a row’s actions side by side', async ({ page }) => {
    await openTab(page, 'Blog');
    await settle(page);
    const header = page.getByRole('columnheader', { name: 'Published' });
    const date = page.getByRole('columnheader', { name: 'Date' });
    // One line: as tall as a single-word header.
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual((await date.boundingBox())!.height + 1);
    const row = page.getByRole('row').filter({ hasText: 'Reducing Procurement Costs' });
    const boxes = await Promise.all([
      row.getByRole('link', { name: /^Preview/ }).boundingBox(),
      row.getByRole('button', { name: /^Edit / }).boundingBox(),
      row.getByRole('button', { name: /^Delete / }).boundingBox(),
    ]);
    const tops = boxes.map((b) => Math.round(b!.y + b!.height / 2));
    expect(new Set(tops).size, `action centres ${tops.join(', ')}`).toBe(1);
    const result = await sideways(page);
    expect(result.wide).toEqual([]);
  });
});
