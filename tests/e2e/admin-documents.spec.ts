import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, openTab, test, toast, unique } from './helpers/admin';
import { watchFileChoosers } from './helpers/file-chooser';

// An upload, saves and a rebuild on a 2-core machine shared with other work: triple the timeout.
test.slow();

/** A small valid PDF, padded with a comment to about 1.5 MB so the upload takes measurable time. */
function pdfBytes(title: string): Buffer {
  const body = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj
% ${title}
%${'x'.repeat(1_500_000)}
trailer << /Root 1 0 R >>
%%EOF
`;
  return Buffer.from(body, 'latin1');
}

async function chooseFile(
  choosers: ReturnType<typeof watchFileChoosers>,
  dialog: ReturnType<Page['getByRole']>,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  const chooser = choosers.next();
  await dialog.getByRole('button', { name: /Choose PDF|Replace PDF/ }).click();
  await (await chooser).setFiles(file);
}

test('[ADMIN][DOCUMENTS]: upload a PDF with progress, edit it, find it on /capabilities, download it, delete it', async ({
  page,
  browser,
}) => {
  test.setTimeout(600_000);
  const choosers = watchFileChoosers(page);
  await openTab(page, 'Documents');
  const tab = page.getByRole('region', { name: 'Documents' });
  await expect(tab.locator('[aria-busy="true"]')).toHaveCount(0);

  await tab.getByRole('button', { name: 'Upload Document' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Document' });
  // No file yet: the record cannot be created.
  await dialog.getByLabel('Title').fill('Placeholder');
  await dialog.getByRole('button', { name: 'Create Document' }).click();
  await expect(toast(page)).toContainText('No file uploaded');
  await expect(toast(page)).toContainText('Please upload a file before creating the document.');
  await dialog.getByLabel('Title').fill('');

  const name = `capability-statement-${unique()}`;
  const bytes = pdfBytes(name);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
  await chooseFile(choosers, dialog, { name: `${name}.pdf`, mimeType: 'application/pdf', buffer: bytes });
  // The empty title takes the file name without its extension.
  await expect(dialog.getByLabel('Title')).toHaveValue(name);
  const bar = dialog.getByRole('progressbar', { name: 'Uploading the PDF' });
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuenow', /^(?:[1-9]\d?)$/, { timeout: 15_000 });
  // Uploaded, not yet a document: said in the dialog, the toast comes once the document exists.
  const size = `${(bytes.length / 1024 / 1024).toFixed(1)} MB`;
  await expect(dialog.getByText(`Uploaded: ${name}.pdf (${size}). Choose Create Document to add it.`)).toBeVisible({ timeout: 30_000 });
  await expect(toast(page)).not.toContainText('uploaded successfully');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  await dialog.getByLabel('Description (optional)').fill('What we deliver to federal buyers.');
  await dialog.getByLabel('Category').selectOption({ label: 'Capability Statement' });
  await dialog.getByLabel('Display order').fill('0');
  await dialog.getByRole('button', { name: 'Create Document' }).click();
  await expect(toast(page)).toContainText('Document created');
  await expect(toast(page)).toContainText(`${name}.pdf has been uploaded successfully (${size})`);
  await expect(dialog).toBeHidden();

  const card = tab.getByRole('listitem').filter({ hasText: name });
  await expect(card).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(card.getByText('Capability Statement')).toBeVisible();
  await expect(card.getByText(`${name}.pdf`)).toBeVisible();
  await expect(card.getByText(`${(bytes.length / 1024 / 1024).toFixed(1)} MB`)).toBeVisible();
  await expect(card.getByRole('link', { name: `Open ${name} in a new tab` })).toHaveAttribute('target', '_blank');

  // Edit: metadata only.
  const title = `Capability Statement ${unique()}`;
  await card.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Document' });
  await expect(edit.getByRole('button', { name: 'Choose PDF' })).toHaveCount(0);
  await edit.getByLabel('Title').fill(title);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page)).toContainText('Document updated');
  const edited = tab.getByRole('listitem').filter({ hasText: title });
  await expect(edited).toBeVisible();
  // Once the change is live, the header links to the page that lists it.
  await expect(page.getByRole('banner').getByRole('link', { name: /^View on site/ })).toHaveAttribute('href', '/capabilities', {
    timeout: 30_000,
  });

  // The publish after the change lists it on /capabilities; the download is the uploaded bytes.
  const visitor = await browser.newPage({ storageState: { cookies: [], origins: [] } });
  await expect(async () => {
    await visitor.goto('/capabilities');
    await expect(visitor.getByRole('heading', { name: title })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 300_000, intervals: [1000, 2000] });
  const download = visitor.waitForEvent('download');
  const publicCard = visitor.getByRole('listitem').filter({ has: visitor.getByRole('heading', { name: title }) });
  await publicCard.getByRole('link', { name: /^Download/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${name}.pdf`);
  const { readFile } = await import('node:fs/promises');
  expect((await readFile((await file.path())!)).equals(bytes)).toBe(true);
  await visitor.close();

  // Delete asks first; cancelling keeps it.
  page.once('dialog', (d) => {
    expect(d.message()).toBe('Are you sure you want to delete this document?');
    void d.dismiss();
  });
  await edited.getByRole('button', { name: `Delete ${title}` }).click();
  await expect(edited).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await edited.getByRole('button', { name: `Delete ${title}` }).click();
  await expect(toast(page)).toContainText('Document deleted');
  await expect(edited).toHaveCount(0);
});

test('[ADMIN][DOCUMENTS]: a PNG renamed .pdf is refused, and so is a file that is not a PDF by type or name', async ({ page }) => {
  const choosers = watchFileChoosers(page);
  await openTab(page, 'Documents');
  await page.getByRole('button', { name: 'Upload Document' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Document' });
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0f766e' } })
    .png()
    .toBuffer();

  await chooseFile(choosers, dialog, { name: 'brochure.png', mimeType: 'image/png', buffer: png });
  await expect(toast(page)).toContainText('Invalid file type');
  await expect(dialog.getByRole('alert')).toHaveText('Please upload a PDF file');

  // By name and type it passes the browser's check; the server reads the bytes.
  await chooseFile(choosers, dialog, { name: 'brochure.pdf', mimeType: 'application/pdf', buffer: png });
  await expect(toast(page)).toContainText('Upload failed');
  await expect(toast(page)).toContainText('There was an error uploading your file. Please try again.');
  await expect(dialog.getByRole('alert')).toHaveText('Please upload a PDF file');
  await dialog.getByLabel('Title').fill('Brochure');
  await dialog.getByRole('button', { name: 'Create Document' }).click();
  await expect(toast(page)).toContainText('No file uploaded');
});
