import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, openTab, restoreRecord, test, toast, unique } from './helpers/admin';
import { watchFileChoosers } from './helpers/file-chooser';
import { axeViolations } from './axe';

// Uploads, saves and a rebuild on a 2-core machine shared with other work: triple the timeout.
test.slow();

/** A 1920x1000 photo-like JPEG (noise does not compress, so the upload takes measurable time). */
async function backgroundJpeg(): Promise<Buffer> {
  return sharp({
    create: { width: 1920, height: 1000, channels: 3, background: '#336699', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function editHeader(page: Page) {
  await openTab(page, 'Homepage');
  const card = page.getByRole('region', { name: 'Header Content' });
  await card.getByRole('button', { name: 'Edit Header Content' }).click();
  return { card, picker: card.getByRole('group', { name: 'Background image' }) };
}

/** Records every value the picker's progress bar takes. */
async function watchProgress(page: Page) {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { progressSeen: number[] }).progressSeen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]');
      const value = Number(bar?.getAttribute('aria-valuenow'));
      if (bar && seen.at(-1) !== value) seen.push(value);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  return () => page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
}

test('[ADMIN][IMAGES]: a header background uploaded with progress and alt text is saved and shown on the home page', async ({
  page,
  browser,
}) => {
  test.setTimeout(400_000);
  const choosers = watchFileChoosers(page);
  const original = await (await page.request.get('/api/content/header/active')).json();
  const { card, picker } = await editHeader(page);
  const alt = `Federal buyers meeting ${unique()}`;
  await picker.getByLabel('Alt text').fill('');

  // A slow uplink so the progress bar has time to move.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
  const progress = await watchProgress(page);
  const chooser = choosers.next();
  await picker.getByRole('button', { name: 'Select Image' }).click();
  await (await chooser).setFiles({ name: 'federal-buyers.jpg', mimeType: 'image/jpeg', buffer: await backgroundJpeg() });
  await expect(picker.getByRole('progressbar')).toBeVisible();
  await expect(toast(page)).toContainText('Image uploaded successfully', { timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  const values = await progress();
  expect(
    values.some((v) => v > 0 && v < 100),
    `progress values ${values.join(',')}`,
  ).toBe(true);

  // The new image is previewed and, its alt text being empty, the alt field has the focus.
  const preview = picker.getByRole('img');
  await expect(preview).toHaveAttribute('src', /\/uploads\//);
  const url = (await preview.getAttribute('src'))!;
  await expect(picker.getByLabel('Alt text')).toBeFocused();
  await page.keyboard.type(alt);
  await card.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page)).toContainText('Header updated');
  const saved = await (await page.request.get('/api/content/header/active')).json();
  expect(saved.backgroundImage).toBe(url);
  expect(saved.backgroundImageAlt).toBe(alt);

  // The publish after the save puts the photo behind the home hero, described by its alt text.
  const visitor = await browser.newPage({ storageState: { cookies: [], origins: [] } });
  await expect(async () => {
    await visitor.goto('/');
    await expect(visitor.getByRole('img', { name: alt })).toHaveAttribute('src', url, { timeout: 1000 });
  }).toPass({ timeout: 300_000, intervals: [1000, 2000] });
  // The upload's WebP variants are offered in srcset, the original last.
  const stem = url.replace(/\.jpg$/, '');
  await expect(visitor.getByRole('img', { name: alt })).toHaveAttribute('srcset', new RegExp(`${stem}-\\d+w\\.webp \\d+w`));
  await visitor.close();

  await restoreRecord(page, '/api/content/header', (id) => `/api/content/header/${id}`, original.id, {
    backgroundImage: original.backgroundImage,
    backgroundImageAlt: original.backgroundImageAlt ?? null,
  });
});

test('[ADMIN][IMAGES]: a pasted URL that is not an image is refused, and the previous image stays', async ({ page, baseURL }) => {
  const { picker } = await editHeader(page);
  const before = await picker.getByRole('img').getAttribute('src');
  await picker.getByLabel('or paste a URL').fill(`${baseURL}/robots.txt`);
  await picker.getByRole('button', { name: 'Add' }).click();
  await expect(picker.getByRole('alert')).toHaveText('The URL does not point to a valid image');
  await expect(picker.getByRole('img')).toHaveAttribute('src', before!);

  await picker.getByLabel('or paste a URL').fill('ftp://example.com/a.png');
  await picker.getByRole('button', { name: 'Add' }).click();
  await expect(picker.getByRole('alert')).toHaveText(
    'Invalid URL format. Please enter a valid image URL that starts with http:// or https://',
  );
  await picker.getByLabel('or paste a URL').fill('');
  await picker.getByRole('button', { name: 'Add' }).click();
  await expect(picker.getByRole('alert')).toHaveText('Please enter an image URL');
});

test('[ADMIN][IMAGES]: a file over 5MB or of another type is refused before upload; the error clears after 5 s', async ({ page }) => {
  // The page's clock is moved on instead of waiting for the 5 s.
  await page.clock.install();
  const { picker } = await editHeader(page);
  let uploads = 0;
  page.on('request', (r) => r.url().includes('/api/upload/image') && r.method() === 'POST' && uploads++);
  const input = picker.locator('input[type="file"]');
  await input.setInputFiles({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
  const alert = picker.getByRole('alert');
  await expect(alert).toHaveText('File is too large. Maximum size is 5MB.');
  await page.clock.fastForward(3500);
  await expect(alert).toHaveText('File is too large. Maximum size is 5MB.');
  await page.clock.fastForward(1600);
  await expect(alert).toHaveText('');

  await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await expect(alert).toHaveText('Invalid file type. Only images are allowed (JPG, PNG, GIF, SVG, WebP).');
  expect(uploads).toBe(0);
});

test('[ADMIN][IMAGES]: a failed upload reverts to the previous image; removing an upload deletes it on the server', async ({ page }) => {
  const { picker } = await editHeader(page);
  const before = (await picker.getByRole('img').getAttribute('src'))!;
  const input = picker.locator('input[type="file"]');
  const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#0f766e' } })
    .png()
    .toBuffer();
  const file = { name: 'badge.png', mimeType: 'image/png', buffer: png };

  await page.route('**/api/upload/image', (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 500, json: { success: false, message: 'Disk full' } }) : route.fallback(),
  );
  await input.setInputFiles(file);
  // SPEC 8's 'Server error: {message}', the message in plain words: a server fault's own text is for the logs.
  await expect(picker.getByRole('alert')).toHaveText(
    'Server error: Something went wrong on the server. Try again in a minute; if it keeps happening, tell whoever looks after the website.',
  );
  await expect(toast(page)).toContainText('Upload failed');
  await expect(picker.getByRole('img')).toHaveAttribute('src', before);

  await page.unroute('**/api/upload/image');
  await page.route('**/api/upload/image', (route) => (route.request().method() === 'POST' ? route.abort() : route.fallback()));
  await input.setInputFiles(file);
  await expect(picker.getByRole('alert')).toHaveText('Network error occurred. Please check your internet connection and try again.');
  await expect(picker.getByRole('img')).toHaveAttribute('src', before);
  await page.unroute('**/api/upload/image');

  // A real upload, then Remove: DELETE names the file by the last segment of its path.
  await input.setInputFiles(file);
  await expect(picker.getByRole('img')).toHaveAttribute('src', /\/uploads\//);
  const uploaded = (await picker.getByRole('img').getAttribute('src'))!;
  const deletion = page.waitForRequest((r) => r.url().endsWith('/api/upload/image') && r.method() === 'DELETE');
  await picker.getByRole('button', { name: 'Remove image' }).click();
  expect((await deletion).postDataJSON()).toEqual({ filename: uploaded.split('/').pop() });
  await expect(picker.getByRole('img')).toHaveCount(0);

  // A deletion the server fails still clears the image here.
  await input.setInputFiles(file);
  await expect(picker.getByRole('img')).toHaveAttribute('src', /\/uploads\//);
  // The image has no description now: the alt field takes the focus and scrolls into view. Once it
  // has, the Remove button stays where the click is aimed (a click during that scroll missed it).
  await expect(picker.getByLabel('Alt text')).toBeFocused();
  await page.route('**/api/upload/image', (route) =>
    route.request().method() === 'DELETE' ? route.fulfill({ status: 500, json: { success: false, message: 'No' } }) : route.fallback(),
  );
  await picker.getByRole('button', { name: 'Remove image' }).click();
  await expect(toast(page)).toContainText('Error removing image');
  await expect(toast(page)).toContainText('Failed to delete the image from server');
  await expect(picker.getByRole('img')).toHaveCount(0);
});

test('[ADMIN][IMAGES]: the picker works from the keyboard alone', async ({ page, baseURL }) => {
  const choosers = watchFileChoosers(page);
  const { card, picker } = await editHeader(page);
  // From the subtitle, Tab reaches the picker's controls in reading order.
  await card.getByLabel('Subtitle').focus();
  await page.keyboard.press('Tab');
  await expect(picker.getByRole('button', { name: 'Remove image' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(picker.getByRole('img')).toHaveCount(0);
  await expect(picker.getByRole('button', { name: 'Select Image' })).toBeFocused();
  const focusRing = await picker.getByRole('button', { name: 'Select Image' }).evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(focusRing).not.toBe('none');

  // Enter on Select Image opens the file chooser.
  const chooser = choosers.next();
  await page.keyboard.press('Enter');
  expect((await chooser).isMultiple()).toBe(false);

  // Tab to Choose from library, then to the URL field; Enter adds the URL (it does not submit the
  // form), then the alt field has the focus.
  await page.keyboard.press('Tab');
  await expect(picker.getByRole('button', { name: 'Choose from library' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(picker.getByLabel('or paste a URL')).toBeFocused();
  await page.keyboard.type(`${baseURL}/images/hero-background.svg`);
  await page.keyboard.press('Enter');
  await expect(picker.getByRole('img')).toHaveAttribute('src', `${baseURL}/images/hero-background.svg`);
  await expect(picker.getByLabel('Alt text')).toBeFocused();
  await page.keyboard.type('Abstract blue shapes');
  await expect(card.getByRole('button', { name: 'Save Changes' })).toBeVisible();
  await page.keyboard.press('Shift+Tab');
  await expect(picker.getByRole('button', { name: /Suggested background 3/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(picker.getByRole('img')).toHaveAttribute('src', /photo-1451187580459/);
});

test('[ADMIN][IMAGES][LIBRARY]: an earlier upload is chosen from the library; an image in use is not deleted, an unused one is', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  const tag = unique();
  const put = async (name: string, background: string | { r: number; g: number; b: number; alpha: number }, logo = false) => {
    let image = sharp({ create: { width: 800, height: 600, channels: logo ? 4 : 3, background } });
    // A white logo on a transparent background: a white square in the middle.
    if (logo) image = image.composite([{ input: { create: { width: 400, height: 300, channels: 4, background: '#ffffff' } } }]);
    const buffer = await image.png().toBuffer();
    const res = await page.request.post('/api/upload/image', {
      multipart: { image: { name, mimeType: 'image/png', buffer } },
      headers: { origin: baseURL! },
    });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { url: string }).url;
  };
  const photo = await put(`founder-${tag}.png`, '#2a7f62');
  const spare = await put(`spare-${tag}.png`, { r: 255, g: 255, b: 255, alpha: 0 }, true);
  const original = (await (await page.request.get('/api/admin/company-profile')).json()) as { founderPhoto: string | null };
  try {
    await openTab(page, 'About');
    await page.getByRole('tab', { name: 'Leadership' }).click();
    const leadership = page.getByRole('region', { name: 'Leadership' });
    await leadership.getByRole('button', { name: 'Edit Leadership' }).click();
    const picker = leadership.getByRole('group', { name: 'Photo (optional)' });
    await picker.getByRole('button', { name: 'Choose from library' }).click();
    const library = page.getByRole('dialog', { name: 'Choose from library' });
    await library.getByLabel('Search by file name').fill(tag);
    await expect(library.getByRole('status')).toHaveText('2 images.');
    const item = library.getByRole('listitem').filter({ hasText: `founder-${tag}.png` });
    await expect(item).toContainText('800 × 600');
    await expect(item).toContainText('Not used anywhere');
    expect(await axeViolations(page, { include: '[role="dialog"]', label: 'library 390' })).toEqual([]);
    // The white logo is seen: its tile has a backdrop of another shade behind the transparency.
    const logoTile = library
      .getByRole('listitem')
      .filter({ hasText: `spare-${tag}.png` })
      .locator('img');
    await expect(logoTile).toHaveJSProperty('complete', true);
    const { channels } = await sharp(await logoTile.screenshot()).stats();
    expect(Math.min(...channels.slice(0, 3).map((c) => c.min))).toBeLessThan(220);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await library.getByRole('button', { name: `Use this image: founder-${tag}.png` }).click();
    await expect(library).toBeHidden();
    await expect(picker.getByRole('img')).toHaveAttribute('src', photo);
    await expect(picker.getByLabel('Alt text')).toBeFocused();
    // The picker names the file as it was uploaded, not by its stored (hashed) name.
    await expect(picker.getByText(`founder-${tag}.png`, { exact: true })).toBeVisible();
    await page.keyboard.type('The founder at her desk');
    await leadership.getByLabel('Name').fill(`Dana Reyes ${tag}`);
    await leadership.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page)).toContainText('Leadership updated');
    // The view shows the photo as a thumbnail with its alt text beside it.
    await expect(leadership.locator(`img[src="${photo}"]`)).toBeVisible();
    await expect(leadership).toContainText('Alt text: The founder at her desk');

    // The library says where the photo is used and will not delete it; the spare one goes.
    await leadership.getByRole('button', { name: 'Edit Leadership' }).click();
    await picker.getByRole('button', { name: 'Choose from library' }).click();
    await library.getByLabel('Search by file name').fill(tag);
    await expect(item).toContainText('Used on: Leadership photo (About page)');
    await item.getByRole('button', { name: `Delete founder-${tag}.png` }).click();
    await page.getByRole('alertdialog', { name: 'Delete this image?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(item.getByRole('alert')).toHaveText(
      'This image is still used: Leadership photo (About page). Choose another image there first.',
    );
    expect((await page.request.get(photo)).status()).toBe(200);
    await library.getByRole('button', { name: `Delete spare-${tag}.png` }).click();
    await page.getByRole('alertdialog', { name: 'Delete this image?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page)).toContainText('Image deleted');
    await expect(library.getByRole('status')).toHaveText('1 image.');
    expect((await page.request.get(spare)).status()).toBe(404);
    await page.keyboard.press('Escape');
    await expect(library).toBeHidden();
  } finally {
    const now = (await (await page.request.get('/api/admin/company-profile')).json()) as { version: number };
    await page.request.patch('/api/admin/company-profile', {
      data: { founderName: null, founderPhoto: original.founderPhoto, founderPhotoAlt: null, version: now.version },
    });
  }
});

test('[ADMIN][IMAGES]: the About and simple variants word their refusals as SPEC 8 says', async ({ page }) => {
  await openTab(page, 'About');
  await page.getByRole('button', { name: 'Edit Content' }).click();
  const about = page.getByRole('group', { name: 'About image (optional)' });
  const gif = { name: 'team.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') };
  await about.locator('input[type="file"]').setInputFiles(gif);
  await expect(about.getByRole('alert')).toHaveText('Invalid file type');
  const big = { name: 'team.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) };
  await about.locator('input[type="file"]').setInputFiles(big);
  await expect(about.getByRole('alert')).toHaveText('File too large: Image size should be less than 5MB.');

  await openTab(page, 'Templates');
  await page.getByRole('button', { name: 'New Template' }).click();
  const logo = page.getByRole('dialog').getByRole('group', { name: 'Company logo (optional)' });
  await logo.locator('input[type="file"]').setInputFiles({ name: 'logo.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(logo.getByRole('alert')).toHaveText('Invalid File Type');
  await logo.getByRole('button', { name: 'Add' }).click();
  await expect(logo.getByRole('alert')).toHaveText('URL Required');
  await logo.getByLabel('or paste a URL').fill('not a url');
  await logo.getByRole('button', { name: 'Add' }).click();
  await expect(logo.getByRole('alert')).toHaveText('Invalid URL');
  // The simple variant has no alt text field: the logo's alt text is the company name.
  await expect(logo.getByLabel('Alt text')).toHaveCount(0);
});

for (const width of [390, 1280]) {
  test(`[ADMIN][A11Y]: the Documents tab and a dialog with the image picker have no axe violations at ${width}px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await openTab(page, 'Documents');
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    expect(await axeViolations(page, { label: 'documents' })).toEqual([]);

    await page.getByRole('button', { name: 'Upload Document' }).click();
    await expect(page.getByRole('dialog', { name: 'Upload Document' })).toBeVisible();
    expect(await axeViolations(page, { include: '[role="dialog"]', label: 'upload dialog' })).toEqual([]);
    await page.keyboard.press('Escape');

    await openTab(page, 'Blog');
    await page.getByRole('button', { name: 'New Insight' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Insight' });
    await expect(dialog.getByRole('group', { name: 'Featured image (optional)' })).toBeVisible();
    expect(await axeViolations(page, { include: '[role="dialog"]', label: 'insight dialog' })).toEqual([]);

    // The media library, opened from that dialog's picker (a dialog over a dialog).
    await dialog.getByRole('group', { name: 'Featured image (optional)' }).getByRole('button', { name: 'Choose from library' }).click();
    const library = page.getByRole('dialog', { name: 'Choose from library' });
    await expect(library.getByRole('status')).not.toHaveText('Loading the library…');
    expect(await axeViolations(page, { include: '[role="dialog"]', label: 'library dialog' })).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(library).toBeHidden();
    await expect(dialog).toBeVisible();
  });
}
