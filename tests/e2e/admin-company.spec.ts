import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { expect, openTab, test, toast, unique } from './helpers/admin';
import { axeViolations } from './axe';

interface Profile {
  shortName: string;
  uei: string | null;
  version: number;
}

const PROFILE = '/api/admin/company-profile';
const UEI_MESSAGE = 'UEI must be 12 letters and digits (SAM.gov Unique Entity ID)';

async function profile(page: Page): Promise<Profile> {
  return (await (await page.request.get(PROFILE)).json()) as Profile;
}

/** The Organization JSON-LD of a page, as text. */
async function jsonLd(page: Page): Promise<string> {
  return (await page.locator('script[type="application/ld+json"]').allTextContents()).join('\n');
}

/** The text of a PDF's first page, as pdf.js reads it. */
async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const items = (await (await doc.getPage(1)).getTextContent()).items;
  await doc.destroy();
  return items.map((i) => ('str' in i ? i.str : '')).join(' ');
}

async function editProfile(page: Page) {
  const card = page.getByRole('region', { name: 'Company Profile' });
  await card.getByRole('button', { name: 'Edit Company Profile' }).click();
  return card;
}

test('[ADMIN][COMPANY]: the checklist, then UEI and short name saved in the Company tab reach the public pages', async ({
  page,
  browser,
}) => {
  // Two publishes; each takes up to 90 s on a loaded 2-core machine, after earlier tests' builds.
  test.setTimeout(600_000);
  const original = await profile(page);
  const uei = 'QX7K2M9P4R1T';
  const shortName = `Acme Federal ${unique()}`;
  const visitor = await browser.newPage({ storageState: { cookies: [], origins: [] } });
  try {
    // A fresh install has neither a UEI nor a CAGE code: the checklist in the Company tab says so,
    // and every tab's banner links to it.
    await page.goto('/admin');
    await page.getByRole('region', { name: 'Site launch' }).getByRole('link', { name: 'Open the checklist' }).click();
    const checklist = page.getByRole('region', { name: 'Before you launch' });
    await expect(checklist).toContainText('Your UEI (SAM.gov Unique Entity ID) is missing.');
    await expect(checklist).toContainText('Your CAGE code is missing.');
    await checklist.getByRole('link', { name: 'Add it in Company' }).first().click();
    await expect(page.getByRole('tab', { name: 'Company' })).toHaveAttribute('aria-selected', 'true');

    // The link opened the form with the UEI focused. Save sends only what changed, with the version.
    let card = page.getByRole('region', { name: 'Company Profile' });
    await expect(card.getByLabel('UEI (optional)')).toBeFocused();
    await card.getByLabel('UEI (optional)').fill(uei.toLowerCase());
    await card.getByLabel('Short name', { exact: true }).fill(shortName);
    const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith(PROFILE));
    await card.getByRole('button', { name: 'Save Changes' }).click();
    expect((await patch).postDataJSON()).toEqual({ uei, shortName, version: original.version });
    await expect(toast(page)).toContainText('Company profile updated');
    await expect(card.getByRole('button', { name: 'Edit Company Profile' })).toBeVisible();
    await expect(card.getByText(uei)).toBeVisible();
    await expect(checklist).not.toContainText('UEI');

    // After the publish: the UEI in the federal profile list and the JSON-LD, the short name in header and footer.
    await expect(async () => {
      await visitor.goto('/services/federal');
      await expect(visitor.locator('footer').getByText(shortName)).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 240_000, intervals: [1000, 2000] });
    const ueiRow = visitor.locator('dl > div').filter({ has: visitor.getByRole('term').getByText('UEI', { exact: true }) });
    await expect(ueiRow.getByRole('definition')).toHaveText(uei);
    await expect(visitor.locator('header').getByText(shortName)).toBeVisible();
    await expect(visitor.locator('footer')).toContainText(`UEI ${uei}`);
    expect(await jsonLd(visitor)).toContain(`"propertyID":"UEI","value":"${uei}"`);

    // The capability statement offered on /capabilities was written again with the new UEI.
    await visitor.goto('/capabilities');
    const statement = visitor
      .getByTestId('document-card')
      .filter({ has: visitor.getByRole('heading', { name: 'Capability Statement', exact: true }) });
    const download = visitor.waitForEvent('download');
    await statement.getByRole('link', { name: /^Download/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('capability-statement.pdf');
    expect(await pdfText(await readFile((await file.path())!))).toContain(uei);

    // A bad UEI: the schema's message under the field, and the server refuses it with the same one.
    card = await editProfile(page);
    await card.getByLabel('UEI (optional)').fill('ABC-123');
    await card.getByRole('button', { name: 'Save Changes' }).click();
    await expect(card.getByText(UEI_MESSAGE)).toBeVisible();
    await expect(card.getByLabel('UEI (optional)')).toHaveAttribute('aria-invalid', 'true');
    const refused = await page.request.patch(PROFILE, { data: { uei: 'ABC-123' } });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain(UEI_MESSAGE);

    // Cleared (and the short name put back): no page shows a UEI label without a value.
    await card.getByLabel('UEI (optional)').fill('');
    await card.getByLabel('Short name', { exact: true }).fill(original.shortName);
    await card.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page)).toContainText('Company profile updated');
    await expect(async () => {
      await visitor.goto('/services/federal');
      await expect(visitor.locator('footer').getByText(original.shortName, { exact: true })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 240_000, intervals: [1000, 2000] });
    for (const path of ['/services/federal', '/about', '/', '/services/partners']) {
      await visitor.goto(path);
      await expect(visitor.getByRole('term').getByText('UEI', { exact: true }), path).toHaveCount(0);
      await expect(visitor.locator('footer'), path).not.toContainText('UEI');
      expect(await jsonLd(visitor), path).not.toContain('"UEI"');
    }
  } finally {
    await visitor.close();
    // Other tests read the seeded profile.
    const now = await profile(page);
    if (now.uei !== original.uei || now.shortName !== original.shortName) {
      const res = await page.request.patch(PROFILE, { data: { uei: original.uei, shortName: original.shortName, version: now.version } });
      expect(res.ok()).toBe(true);
    }
  }
});

test('[ADMIN][COMPANY][A11Y]: the Company tab has no axe violations and no sideways scrolling at 390 and 1280 px', async ({ page }) => {
  test.setTimeout(120_000);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await openTab(page, 'Company');
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit Company Profile' })).toBeVisible();
    for (const mode of ['view', 'edit']) {
      if (mode === 'edit') {
        await page.getByRole('button', { name: 'Edit Company Profile' }).click();
        await page.getByRole('button', { name: 'Add certification' }).click();
      }
      expect(await axeViolations(page, { label: `${width} ${mode}` })).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${width} ${mode}`).toBeLessThanOrEqual(0);
    }
    // The NAICS picker's dialog, with results listed.
    await page.getByRole('button', { name: 'Find official code for NAICS code 1' }).click();
    const picker = page.getByRole('dialog', { name: 'Find the official NAICS code' });
    await picker.getByLabel('Code or words').fill('computer');
    await expect(picker.getByRole('status')).toHaveText('9 matches.');
    expect(await axeViolations(page, { include: '[role="dialog"]', label: `${width} NAICS picker` })).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Cancel' }).click();
    // The added certification is an unsaved change: Cancel asks before dropping it.
    await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
  }
});

test('[ADMIN][COMPANY][NAICS]: the official 2022 list fills a row by code or words, and a retired code is pointed out', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 900 });
  await openTab(page, 'Company');
  await page.getByRole('button', { name: 'Edit Company Profile' }).click();
  const form = page.getByRole('form', { name: 'Edit company profile' });
  const row = (n: number) => form.getByRole('listitem').filter({ has: page.getByLabel(`Code (NAICS code ${n})`) });

  // The starting profile's 443142 (Electronics Stores) was replaced in 2022 by 449210.
  await expect(row(2)).toContainText(
    '443142 is not a 2022 NAICS code. It was retired in 2022; its successor: 449210 Electronics and Appliance Retailers.',
  );
  await row(2).getByRole('button', { name: 'Find official code for NAICS code 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Find the official NAICS code' });
  const search = dialog.getByRole('combobox', { name: 'Code or words' });
  await expect(search).toBeFocused();
  await search.fill('electronics retail');
  await expect(dialog.getByRole('status')).toHaveText('1 match.');
  // The retired code itself brings its successor.
  await search.fill('443142');
  await expect(dialog.getByRole('status')).toHaveText('443142 is a 2017 code, retired in 2022. Its 2022 successor is listed.');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // Chosen by keyboard: the arrow keys highlight a result, Enter takes it.
  const successor = dialog.getByRole('option', { name: /^449210 Electronics and Appliance Retailers/ });
  await expect(successor).toHaveAttribute('aria-selected', 'false');
  await search.press('ArrowDown');
  await expect(successor).toHaveAttribute('aria-selected', 'true');
  await expect(search).toHaveAttribute('aria-activedescendant', (await successor.getAttribute('id'))!);
  await search.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(row(2).getByLabel('Code (NAICS code 2)')).toHaveValue('449210');
  await expect(row(2).getByLabel('Official title (NAICS code 2)')).toHaveValue('Electronics and Appliance Retailers');
  await expect(row(2)).not.toContainText('not a 2022 NAICS code');

  // A code typed into a new row brings its official title; digits search by the start of a code.
  await form.getByRole('button', { name: 'Add NAICS code' }).click();
  const added = row(7);
  await added.getByLabel('Code (NAICS code 7)').fill('541512');
  await expect(added.getByLabel('Official title (NAICS code 7)')).toHaveValue('Computer Systems Design Services');
  // A title typed by hand that is not the official one: the official one is offered.
  await added.getByLabel('Official title (NAICS code 7)').fill('IT design');
  await expect(added).toContainText('Official 2022 title: Computer Systems Design Services.');
  await added.getByRole('button', { name: 'Use it: the official title for NAICS code 7' }).click();
  await expect(added.getByLabel('Official title (NAICS code 7)')).toHaveValue('Computer Systems Design Services');
  await added.getByRole('button', { name: 'Find official code for NAICS code 7' }).click();
  await dialog.getByLabel('Code or words').fill('5415');
  await expect(dialog.getByRole('status')).toHaveText('4 matches.');
  await dialog.getByRole('option', { name: /^541519 / }).click();
  await expect(added.getByLabel('Code (NAICS code 7)')).toHaveValue('541519');
  await expect(added.getByLabel('Official title (NAICS code 7)')).toHaveValue('Other Computer Related Services');

  // Nothing was saved: the rows are unsaved changes until Save.
  await form.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
  const saved = (await (await page.request.get(PROFILE)).json()) as { naicsCodes: { code: string }[] };
  expect(saved.naicsCodes.map((n) => n.code)).toContain('443142');
});

test('[ADMIN][COMPANY][STATEMENT]: a contract vehicle, a PSC code and the point of contact’s line saved in the Company tab are on the statement', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await openTab(page, 'Company');
  const card = await editProfile(page);
  await card.getByRole('button', { name: 'Add contract vehicle' }).click();
  await card.getByLabel('Name (contract vehicle 1)').fill('GSA MAS');
  await card.getByLabel('Contract number (optional) (contract vehicle 1)').fill('47QSWA24D0001');
  await card.getByRole('button', { name: 'Add PSC code' }).click();
  await card.getByLabel('PSC code (1)').fill('r408');
  await card.getByLabel('Point of contact’s direct phone (optional)').fill('(703) 555-0101');
  const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith(PROFILE));
  await card.getByRole('button', { name: 'Save Changes' }).click();
  expect((await patch).postDataJSON()).toMatchObject({
    contractVehicles: [{ name: 'GSA MAS', number: '47QSWA24D0001' }],
    pscCodes: ['R408'],
    contactPersonPhone: '(703) 555-0101',
  });
  try {
    await expect(toast(page)).toContainText('Company profile updated');
    await expect(card).toContainText('GSA MAS 47QSWA24D0001');
    await expect(async () => {
      const res = await page.request.get('/capability-statement.pdf');
      const text = (await pdfText(await res.body())).replace(/\s+/g, ' ');
      expect(text).toMatch(/CONTRACT VEHICLE.*GSA MAS 47QSWA24D0001/);
      expect(text).toMatch(/PSC R408/);
    }).toPass({ timeout: 240_000, intervals: [1000, 2000] });
  } finally {
    const now = (await profile(page)).version;
    const res = await page.request.patch(PROFILE, { data: { contractVehicles: [], pscCodes: [], contactPersonPhone: null, version: now } });
    expect(res.ok(), await res.text()).toBe(true);
  }
});

test('[ADMIN][COMPANY][STATEMENT]: the Company tab shows a thumbnail of the capability statement, drawn in the browser, with Open and Download', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const pdfjs: string[] = [];
  page.on('request', (r) => /pdf\.worker|pdf-page-image/.test(r.url()) && pdfjs.push(r.url()));
  await page.setViewportSize({ width: 390, height: 900 });
  await openTab(page, 'Company');
  const card = page.getByRole('region', { name: 'Capability statement' });
  await expect(card).toContainText('The site offers this statement to visitors.');
  // pdf.js loads only once the thumbnail's place is on screen.
  expect(pdfjs).toEqual([]);
  await card.scrollIntoViewIfNeeded();
  const thumbnail = card.getByRole('img', { name: 'The capability statement’s page, as a thumbnail' });
  await expect(thumbnail).toBeVisible({ timeout: 60_000 });
  // pdf.js and its worker (a thread of its own, not the page's) came from our origin.
  expect(pdfjs.some((u) => /pdf\.worker/.test(u))).toBe(true);
  expect(pdfjs.every((u) => u.startsWith(new URL(page.url()).origin))).toBe(true);
  // A drawn page: US Letter proportions, and the dark pixels of its text and headings.
  const drawn = await thumbnail.evaluate((el: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = el.naturalWidth;
    canvas.height = el.naturalHeight;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(el, 0, 0);
    const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let dark = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i]! < 110 && d[i + 1]! < 110 && d[i + 2]! < 160) dark++;
    return { ratio: el.naturalHeight / el.naturalWidth, dark: dark / (d.length / 4) };
  });
  expect(drawn.ratio).toBeCloseTo(11 / 8.5, 1);
  expect(drawn.dark).toBeGreaterThan(0.01);
  await expect(card.getByRole('link', { name: 'Open the capability statement (PDF, new tab)' })).toHaveAttribute(
    'href',
    '/capability-statement.pdf',
  );
  await expect(card.getByRole('link', { name: 'Download the capability statement' })).toHaveAttribute('download', '');
  expect(await axeViolations(page, { include: '[aria-label="Capability statement"]', label: 'statement card 390' })).toEqual([]);
  expect(errors).toEqual([]);
});

test('[ADMIN][COMPANY][STATEMENT]: the thumbnail is drawn again after a publish that changed the statement, not after one that left it as it was', async ({
  page,
}) => {
  // Two publishes and the one that puts the UEI back; each up to 90 s on a loaded machine.
  test.setTimeout(600_000);
  const original = await profile(page);
  const lastPublished = async () =>
    ((await (await page.request.get('/api/admin/publish/status')).json()) as { lastPublishedAt: string | null }).lastPublishedAt;
  // The tab asks for the publish status every 30 s when nothing is publishing: the page's clock
  // jumps to the next time it asks, rather than the test waiting for it.
  await page.clock.install();
  const nextStatusPoll = () => page.clock.fastForward(31_000);
  const statementAsked = () => page.waitForResponse((r) => new URL(r.url()).pathname === '/capability-statement.pdf');
  try {
    await openTab(page, 'Company');
    const card = page.getByRole('region', { name: 'Capability statement' });
    await card.scrollIntoViewIfNeeded();
    const thumbnail = card.getByRole('img', { name: 'The capability statement’s page, as a thumbnail' });
    await expect(thumbnail).toBeVisible({ timeout: 60_000 });
    const first = (await thumbnail.getAttribute('src'))!;

    // Published again with nothing changed: the file is asked for, its entity tag is the one drawn.
    let before = await lastPublished();
    let asked = statementAsked();
    expect((await page.request.post('/api/admin/publish')).status()).toBe(202);
    await expect.poll(lastPublished, { timeout: 240_000 }).not.toBe(before);
    await nextStatusPoll();
    expect([200, 304]).toContain((await asked).status());
    // Time enough to draw a page (well under a second here), had it been drawn again.
    await page.waitForTimeout(3000);
    await expect(thumbnail).toHaveAttribute('src', first);

    // A UEI is printed on the statement: a new file, drawn again.
    before = await lastPublished();
    asked = statementAsked();
    const res = await page.request.patch(PROFILE, { data: { uei: 'QX7K2M9P4R1T', version: original.version } });
    expect(res.ok()).toBe(true);
    await expect.poll(lastPublished, { timeout: 240_000 }).not.toBe(before);
    await nextStatusPoll();
    expect((await asked).status()).toBe(200);
    await expect(thumbnail).not.toHaveAttribute('src', first, { timeout: 30_000 });
  } finally {
    // Other tests read the seeded profile.
    const now = await profile(page);
    if (now.uei !== original.uei) {
      const res = await page.request.patch(PROFILE, { data: { uei: original.uei, version: now.version } });
      expect(res.ok()).toBe(true);
    }
  }
});

test('[ADMIN][COMPANY][PAST PERFORMANCE]: an entry and the founder saved in the back office appear on the public pages, axe clean', async ({
  page,
  browser,
}) => {
  // One publish for both saves (they coalesce or follow each other); up to 90 s on a loaded machine.
  test.setTimeout(600_000);
  const title = `Displays for three medical centers ${unique()}`;
  const founder = `Maria Lopez ${unique()}`;
  const visitor = await browser.newPage({ storageState: { cookies: [], origins: [] } });
  let created: { id: number } | undefined;
  try {
    await openTab(page, 'Company');
    const card = page.getByRole('region', { name: 'Past performance' });
    await card.getByRole('button', { name: 'Add Past Performance' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Past Performance' });
    await dialog.getByLabel('Customer').fill('Department of Veterans Affairs');
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel('Summary').fill('Sourced and delivered 42 displays, on time and TAA compliant.');
    await dialog.getByLabel('Start month').fill('2023-03');
    await dialog.getByLabel('End month (optional)').fill('2022-01');
    await dialog.getByLabel('Value in US dollars (optional)').fill('1,250,000');
    await dialog.getByRole('switch', { name: 'Show the value on the website' }).click();
    await dialog.getByLabel('NAICS code (optional)').fill('423430');
    // The schema's message under the field; then fixed, saved with the keyboard.
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText('End month cannot be before the start month')).toBeVisible();
    await dialog.getByLabel('End month (optional)').fill('');
    const post = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/admin/past-performance'));
    await dialog.getByRole('button', { name: 'Create' }).press('Enter');
    created = (await (await post).json()) as { id: number };
    await expect(toast(page)).toContainText('Past performance added');
    await expect(card.getByRole('cell', { name: title, exact: true })).toBeVisible();

    await openTab(page, 'About');
    await page.getByRole('tab', { name: 'Leadership' }).click();
    const leadership = page.getByRole('region', { name: 'Leadership' });
    await leadership.getByRole('button', { name: 'Edit Leadership' }).click();
    await leadership.getByLabel('Name').fill(founder);
    await leadership.getByLabel('Title (optional)').fill('Founder and CEO');
    await leadership.getByLabel('Short story (optional)').fill('Twenty years in federal supply before founding the business.');
    await leadership.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page)).toContainText('Leadership updated');

    await expect(async () => {
      await visitor.goto('/about');
      await expect(visitor.getByText(founder)).toBeVisible({ timeout: 1000 });
      await expect(visitor.getByRole('heading', { name: title })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 240_000, intervals: [1000, 2000] });
    await expect(visitor.getByText('Founder and CEO')).toBeVisible();
    for (const path of ['/services/federal', '/']) {
      await visitor.goto(path);
      const entry = visitor.getByRole('listitem').filter({ has: visitor.getByRole('heading', { name: title }) });
      await expect(entry, path).toContainText('Mar 2023 – present');
      await expect(entry, path).toContainText('$1,250,000');
      await expect(entry, path).toContainText('423430');
    }
    for (const width of [390, 1280]) {
      await visitor.setViewportSize({ width, height: 900 });
      for (const path of ['/', '/about', '/services/federal']) {
        await visitor.goto(path);
        expect(await axeViolations(visitor, { label: `${path} ${width}` })).toEqual([]);
      }
    }
  } finally {
    await visitor.close();
    // Other tests read the seeded content.
    if (created) await page.request.delete(`/api/admin/past-performance/${created.id}`);
    const now = await profile(page);
    await page.request.patch(PROFILE, { data: { founderName: null, founderTitle: null, founderStory: null, version: now.version } });
  }
});
