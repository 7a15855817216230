import type { Locator, Page } from '@playwright/test';
import { axeViolations } from './axe';
import { expect, test } from './fixtures';
import { toast as toastOf } from './helpers/admin';
import { signedInContext, startOwnServer, type OwnServer } from './helpers/own-server';
import { e2ePort } from './servers.mjs';

/*
 * Launch day, as a new owner lives it: a fresh install (a server of this file's own) is hidden from
 * search engines; "Before you launch" lists every starter item and what the profile lacks; each is
 * cleared through the back office (an edit from the item's own link, a deleted article, or Keep as
 * mine) with the count going up at each step; then Launch site, and Hide from search engines again.
 */

test.describe.configure({ mode: 'serial', timeout: 300_000 });

/** A slot far above the parallel workers' (tests/e2e/servers.mjs): its port and data are its own. */
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
    await page.getByLabel('Short name', { exact: true }).fill('Harbor Federal');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast).toContainText('Company profile updated');
    await expect(page.getByRole('button', { name: 'Edit Company Profile' })).toBeVisible();
    await unfold(page, checklist);
    await stepped(2);

    // The home page title: its link opens the header editor for editing.
    await item(checklist, 'The home page title and subtitle is still the starter text.').getByRole('link').click();
    await expect(page.getByRole('tab', { name: 'Homepage' })).toHaveAttribute('aria-selected', 'true');
    const header = page.getByRole('region', { name: 'Header Content' });
    const starterTitle = await header.getByLabel('Title', { exact: true }).inputValue();
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
    await page.getByRole('button', { name: /^(Save Changes|Update)/ }).click();
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
      expect(html).toContain('Laptops and networks for federal agencies');
    }).toPass({ timeout: 120_000 });
    // Nothing the owner replaced or deleted is left on any public page: not the starter company's
    // names, the home page's starter title, nor the deleted article.
    const sitemap = await (await visitor.get('/sitemap.xml')).text();
    const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new globalThis.URL(m[1]!).pathname);
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) {
      const html = await (await visitor.get(path)).text();
      for (const gone of ['Sterling Federal', starterTitle, doomed]) expect(html, `${gone} on ${path}`).not.toContain(gone);
    }

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

/** A plain logo of the given shape (PNG), as an owner's upload. */
async function logoPng(width: number, height: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp({ create: { width, height, channels: 3, background: '#0b3a6a' } })
    .png()
    .toBuffer();
}

/**
 * What a visitor's header shows at this width: whether anything overflows the page or the row, and
 * the words of the name and the navigation's labels that a line break cuts (each word, and each
 * label whole, must sit on one line).
 */
async function headerFit(page: Page) {
  return page.evaluate(() => {
    const header = document.getElementById('site-header')!;
    const row = header.firstElementChild as HTMLElement;
    const visible = (el: Element) => (el as HTMLElement).offsetParent !== null && el.getBoundingClientRect().width > 1;
    /** The number of lines a piece of `node`'s text spans. */
    const lines = (node: Text, start: number, end: number) => {
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, end);
      return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    };
    const broken: string[] = [];
    const name = document.getElementById('site-name');
    const nameShown = Boolean(name && header.dataset.name !== 'hidden' && visible(name));
    if (name && nameShown) {
      const text = name.firstChild as Text;
      for (const m of text.data.matchAll(/\S+/g)) if (lines(text, m.index, m.index + m[0].length) > 1) broken.push(m[0]);
    }
    const labels = [...header.querySelectorAll('#site-nav a, #site-nav button')].filter(visible);
    for (const label of labels) {
      const text = [...label.childNodes].find((n): n is Text => n.nodeType === Node.TEXT_NODE && (n as Text).data.trim() !== '')!;
      if (lines(text, 0, text.data.length) > 1) broken.push(text.data.trim());
    }
    return {
      fit: header.dataset.fit,
      nameShown,
      navShown: labels.length > 0,
      menuButton: visible(document.getElementById('menu-toggle')!),
      pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
      rowOverflow: row.scrollWidth - row.clientWidth,
      broken,
    };
  });
}

test('[HEADER]: any logo and a 40-character name fit the header at 320 to 1280 px: no word broken, nothing overflows, the menu button where the links do not fit', async ({
  browser,
  playwright,
}, testInfo) => {
  const context = await signedInContext(browser, URL);
  const admin = await playwright.request.newContext({
    baseURL: URL,
    storageState: await context.storageState(),
    extraHTTPHeaders: { origin: URL },
  });
  const visitor = await browser.newContext({ baseURL: URL });
  const page = await context.newPage();
  const name = 'Northstar Federal Supply & Logistics Co.';
  expect(name).toHaveLength(40);
  try {
    // The owner's name, and the switch in her company identity (off until she turns it on).
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Company' }).click();
    await page.getByRole('button', { name: 'Edit Company Profile' }).click();
    await page.getByLabel('Short name', { exact: true }).fill(name);
    const show = page.getByRole('switch', { name: 'Show the name beside the logo' });
    await expect(show).not.toBeChecked();
    // A compliance statement's status, chosen in the same form.
    await page.getByRole('combobox', { name: 'Status (statement 1)' }).selectOption('Pending');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toastOf(page)).toContainText('Company profile updated');
    await expect(page.getByRole('region', { name: 'Compliance statements' }).getByRole('listitem').first()).toContainText('Pending');

    const upload = async (width: number, height: number) => {
      const res = await admin.post('/api/upload/image', {
        multipart: { image: { name: `logo-${width}x${height}.png`, mimeType: 'image/png', buffer: await logoPng(width, height) } },
      });
      expect(res.ok(), await res.text()).toBe(true);
      return ((await res.json()) as { url: string }).url;
    };
    const setLogo = async (logoLight: string) => {
      const current = (await (await admin.get('/api/content/header/active')).json()) as { id: number; version: number };
      const res = await admin.patch(`/api/content/header/${current.id}`, { data: { logoLight, version: current.version } });
      expect(res.ok(), await res.text()).toBe(true);
    };
    const setShowName = async (on: boolean) => {
      const current = (await (await admin.get('/api/admin/company-profile')).json()) as { version: number };
      const res = await admin.patch('/api/admin/company-profile', { data: { showNameWithLogo: on, version: current.version } });
      expect(res.ok(), await res.text()).toBe(true);
    };
    const starterLogo = ((await (await admin.get('/api/content/header/active')).json()) as { logoLight: string }).logoLight;
    const wide = await upload(800, 200);
    const square = await upload(300, 300);

    const cases = [
      { label: 'the site mark and the name (no logo)', logo: starterLogo, showName: false, img: false, nameAt1280: true },
      { label: 'a square logo and the name', logo: square, showName: true, img: true, nameAt1280: true },
      { label: 'a 4:1 logo alone (the switch off)', logo: wide, showName: false, img: true, nameAt1280: false },
      { label: 'a 4:1 logo and the name', logo: wide, showName: true, img: true, nameAt1280: true },
    ];
    const vpage = await visitor.newPage();
    for (const c of cases) {
      await setLogo(c.logo);
      await setShowName(c.showName);
      // Published: the page's header has the logo (or the mark) and the name as the switch says.
      const published = async () => {
        const html = await (await visitor.request.get('/services')).text();
        const header = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
        return { logo: c.img ? header.includes(`src="${c.logo}"`) : !header.includes('<img'), name: header.includes('id="site-name"') };
      };
      await expect.poll(published, { timeout: 60_000, intervals: [200] }).toEqual({ logo: true, name: c.showName || !c.img });
      const checked = new Set<string>();
      for (const width of [320, 390, 768, 1024, 1280]) {
        await vpage.setViewportSize({ width, height: 700 });
        await vpage.goto('/services');
        await vpage.evaluate(() => document.fonts.ready);
        const fit = await headerFit(vpage);
        const where = `${c.label} at ${width} px`;
        expect(fit.broken, where).toEqual([]);
        expect(fit.pageOverflow, where).toBeLessThanOrEqual(0);
        expect(fit.rowOverflow, where).toBeLessThanOrEqual(1);
        // The links or the menu button, never neither nor both.
        expect(fit.navShown !== fit.menuButton, where).toBe(true);
        if (width === 1280) expect({ nav: fit.navShown, name: fit.nameShown }, where).toEqual({ nav: true, name: c.nameAt1280 });
        if (width === 320) expect(fit.menuButton, where).toBe(true);
        // axe once for each state the header takes (links or menu; name on one line, two, or not shown).
        const state = `${fit.fit} ${await vpage.locator('#site-header').getAttribute('data-name')}`;
        if (!checked.has(state)) expect(await axeViolations(vpage, { include: '#site-header', wcag: true }), where).toEqual([]);
        checked.add(state);
        await testInfo.attach(`header ${where}`, { body: await vpage.locator('#site-header').screenshot(), contentType: 'image/png' });
      }
    }
    // Where the links do not fit, the menu button opens them (a wide logo and the name at 768 px).
    await vpage.setViewportSize({ width: 768, height: 700 });
    await vpage.goto('/services');
    await vpage.getByRole('button', { name: 'Menu' }).click();
    await expect(vpage.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Contact' })).toBeVisible();
    // Widening the window brings the links back into the row and closes the menu.
    await vpage.setViewportSize({ width: 1280, height: 700 });
    await expect(vpage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact' })).toBeVisible();
    await expect(vpage.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
  } finally {
    await admin.dispose();
    await visitor.close();
    await context.close();
  }
});
