import type { Locator, Page } from '@playwright/test';
import { axeViolations } from './axe';
import { expect, test } from './fixtures';
import { toast as toastOf } from './helpers/admin';
import { signedInContext, startOwnServer, type OwnServer } from './helpers/own-server';
import { e2ePort } from './servers';

/*
 * Launch day, as a new owner lives it: a fresh install (a server of this file's own) is hidden from
 * search engines; "Before you launch" lists every starter item and what the profile lacks; each is
 * cleared through the back office (an edit from the item's own link, a deleted article, or Keep as
 * mine) with the count going up at each step; then Launch site, and Hide from search engines again.
 */

test.describe.configure({ mode: 'serial', timeout: 300_000 });

/** A slot far above the parallel workers' (tests/e2e/servers.ts): its port and data are its own. */
const SLOT = 92;
const URL = `http://localhost:${e2ePort(SLOT)}`;
const HIDDEN_ROBOTS = 'User-agent: *\nDisallow: /\n';

let server: OwnServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startOwnServer(SLOT, {});
});
test.afterAll(async () => {
  await server?.stop();
});

/** "9 of 47 done" of the checklist. */
async function doneCount(checklist: Locator): Promise<{ done: number; total: number }> {
  const text = (await checklist.getByText(/\d+ of \d+ done\./).textContent())!;
  const [, done, total] = /(\d+) of (\d+) done/.exec(text)!;
  return { done: Number(done), total: Number(total) };
}

/** The checklist's line that reads `text`. */
const item = (checklist: Locator, text: string | RegExp) => checklist.getByRole('listitem').filter({ hasText: text });

/** Opens every group of the checklist (the pages' groups start folded). */
async function unfold(page: Page, checklist: Locator): Promise<void> {
  await expect(checklist.getByText(/\d+ of \d+ done\./)).toBeVisible();
  const folded = checklist.locator('details:not([open]) > summary');
  for (let left = await folded.count(); left > 0; left--) await folded.first().click();
  await expect(checklist.locator('details:not([open])')).toHaveCount(0);
  void page;
}

test('[LAUNCH]: a fresh install is hidden; the checklist walked to zero through the back office, the count at each step; launched; hidden again', async ({
  browser,
  playwright,
}) => {
  const visitor = await playwright.request.newContext({ baseURL: URL });
  const context = await signedInContext(browser, URL);
  const page = await context.newPage();
  try {
    // Hidden from the first minute: robots.txt refuses every crawler, every page says noindex.
    expect(await (await visitor.get('/robots.txt')).text()).toBe(HIDDEN_ROBOTS);
    const home = await visitor.get('/');
    expect(home.headers()['x-robots-tag']).toBe('noindex');
    expect(await home.text()).toContain('<meta name="robots" content="noindex">');

    await page.goto('/admin');
    const banner = page.getByRole('region', { name: 'Site launch' });
    await expect(banner).toContainText('Your site is hidden from search engines until you launch it.');
    for (const tab of ['Blog', 'Account']) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(banner, `on ${tab}`).toBeVisible();
    }
    // Launch site lists what is still to do, and launches only on confirmation.
    await banner.getByRole('button', { name: 'Launch site' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Launch your site?' });
    await expect(dialog).toContainText(/Still to do: \d+ items \(\d+ still starter content/);
    await expect(dialog.getByText(/^The article “.+” is still the starter text\.$/).first()).toBeVisible();
    expect(await axeViolations(page, { include: '[role="alertdialog"]', wcag: true })).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    await banner.getByRole('link', { name: 'Open the checklist' }).click();
    await expect(page.getByRole('tab', { name: 'Company' })).toHaveAttribute('aria-selected', 'true');
    const checklist = page.getByRole('region', { name: 'Before you launch' });
    await unfold(page, checklist);
    expect(await axeViolations(page, { include: 'section[aria-labelledby="setup-checklist-title"]', wcag: true })).toEqual([]);
    let count = await doneCount(checklist);
    expect(count.done).toBeLessThan(count.total);
    /** After a step: the count is one more (or `by` more), the total the same. */
    const stepped = async (by = 1) => {
      const want = count.done + by;
      await expect(checklist.getByText(`${want} of ${count.total} done.`)).toBeVisible();
      count = { ...count, done: want };
    };
    const toast = toastOf(page);

    // A company field: its link opens the Company form at the field.
    await item(checklist, 'The legal company name is still the starter text.').getByRole('link', { name: 'Edit it in Company' }).click();
    await expect(page.getByLabel('Legal name', { exact: true })).toBeFocused();
    await page.getByLabel('Legal name', { exact: true }).fill('Harbor Federal Supply, LLC');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast).toContainText('Company profile updated');
    await expect(page.getByRole('button', { name: 'Edit Company Profile' })).toBeVisible();
    await unfold(page, checklist);
    await stepped();

    // The home page title: its link opens the header editor for editing.
    await item(checklist, 'The home page title and subtitle is still the starter text.').getByRole('link').click();
    await expect(page.getByRole('tab', { name: 'Homepage' })).toHaveAttribute('aria-selected', 'true');
    const header = page.getByRole('region', { name: 'Header Content' });
    await header.getByLabel('Title', { exact: true }).fill('Laptops and networks for federal agencies');
    await header.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast).toContainText('Header updated');
    await expect(header.getByRole('button', { name: 'Edit Header Content' })).toBeVisible();

    // A "Why Choose Us" card: its link opens the card's own edit dialog.
    await page.getByRole('tab', { name: 'Company' }).click();
    await unfold(page, checklist);
    await stepped();
    const card = item(checklist, /^The “Why Choose Us” card “.+” is still the starter text\./).first();
    await card.getByRole('link', { name: 'Edit it in About' }).click();
    const cardDialog = page.getByRole('dialog', { name: 'Edit Feature' });
    await cardDialog.getByLabel('Description', { exact: true }).fill('Our own words about how we work with agencies.');
    await cardDialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(cardDialog).toBeHidden();

    // An article: its link opens the article; a second one is deleted in the Blog tab.
    await page.getByRole('tab', { name: 'Company' }).click();
    await unfold(page, checklist);
    await stepped();
    const articles = item(checklist, /^The article “.+” is still the starter text\./);
    const titleOf = async (i: number) => /“(.+)”/.exec((await articles.nth(i).textContent())!)![1]!;
    const doomed = await titleOf(1);
    await articles.first().getByRole('link', { name: 'Edit or delete it in Blog' }).click();
    const article = page.getByRole('dialog', { name: 'Edit Insight' });
    await article.getByLabel('Author name').fill('Dana Whitfield');
    await article.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast).toContainText('Insight updated');
    await page.getByRole('button', { name: `Delete ${doomed}` }).click();
    await page.getByRole('alertdialog', { name: 'Delete insight?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(toast).toContainText('Insight deleted');

    // The registrations, in the Company form.
    await page.getByRole('tab', { name: 'Company' }).click();
    await unfold(page, checklist);
    await stepped(2);
    await item(checklist, 'Your UEI (SAM.gov Unique Entity ID) is missing.').getByRole('link').click();
    await expect(page.getByLabel('UEI (optional)')).toBeFocused();
    await page.getByLabel('UEI (optional)').fill('QX7K2M9P4R1T');
    await page.getByLabel('CAGE code (optional)').fill('7ABC1');
    await page.getByLabel('Procurement e-mail (optional)').fill('bids@harbor-federal.com');
    await page.getByRole('switch', { name: 'SAM registration is active' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast).toContainText('Company profile updated');
    await expect(page.getByRole('button', { name: 'Edit Company Profile' })).toBeVisible();
    await unfold(page, checklist);
    await stepped(4);

    // The example contact details, in the Contacts tab's editor.
    await item(checklist, /^The contact e-mail .+ is an example address/)
      .getByRole('link')
      .click();
    await expect(page.getByLabel('Email', { exact: true })).toBeFocused();
    await page.getByLabel('Email', { exact: true }).fill('sales@harbor-federal.com');
    await page.getByLabel('Phone', { exact: true }).fill('(703) 555-2400');
    await page.getByLabel('Address', { exact: true }).fill('1200 Harbor Way, Suite 300, Alexandria, VA 22314');
    await page.getByRole('button', { name: /^(Save|Update)/ }).click();
    await expect(toast).toContainText('Contact information updated successfully');
    await expect(page.getByRole('button', { name: 'Add Contact Information' })).toBeVisible();
    await page.getByRole('tab', { name: 'Company' }).click();
    await unfold(page, checklist);
    await stepped(3);

    // Everything else is kept as it is, one at a time.
    for (let left = await checklist.getByRole('button', { name: 'Keep as mine' }).count(); left > 0; left--) {
      await checklist.getByRole('button', { name: 'Keep as mine' }).first().click();
      if (left > 1) {
        await unfold(page, checklist);
        await stepped();
      }
    }
    // Done: the checklist leaves, the banner says so.
    await expect(checklist).toBeHidden();
    await expect(banner).toContainText('Everything on the checklist is done.');
    expect(await (await visitor.get('/robots.txt')).text()).toBe(HIDDEN_ROBOTS);

    // Launch: audited, every page published again without noindex, robots.txt names the sitemap.
    await banner.getByRole('button', { name: 'Launch site' }).click();
    await page.getByRole('alertdialog', { name: 'Launch your site?' }).getByRole('button', { name: 'Launch site' }).click();
    await expect(toast).toContainText('Your site is launched');
    await expect(banner).toBeHidden();
    await expect(async () => expect(await (await visitor.get('/robots.txt')).text()).toContain(`Sitemap: ${URL}/sitemap.xml`)).toPass({
      timeout: 120_000,
    });
    await expect(async () => {
      const launched = await visitor.get('/');
      expect(launched.headers()['x-robots-tag']).toBeUndefined();
      const html = await launched.text();
      expect(html).not.toContain('name="robots"');
      // Nothing of the starter company on the home page any more.
      expect(html).toContain('Laptops and networks for federal agencies');
    }).toPass({ timeout: 120_000 });

    // And back: Hide from search engines, in the Company tab, after a confirmation.
    const visibility = page.getByRole('region', { name: 'Search engines' });
    await expect(visibility).toContainText('Your site is launched');
    await visibility.getByRole('button', { name: 'Hide from search engines' }).click();
    await page
      .getByRole('alertdialog', { name: 'Hide the site from search engines?' })
      .getByRole('button', { name: 'Hide from search engines' })
      .click();
    await expect(banner).toBeVisible();
    await expect(async () => expect(await (await visitor.get('/robots.txt')).text()).toBe(HIDDEN_ROBOTS)).toPass({ timeout: 120_000 });
  } finally {
    await context.close();
    await visitor.dispose();
  }
});
