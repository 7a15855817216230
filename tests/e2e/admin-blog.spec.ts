import { expect, openTab, test, toast, unique } from './helpers/admin';

// Several saves and refetches per test on a 2-core machine shared with rebuilds: triple the timeout.
test.slow();

test(
  '[ADMIN][BLOG]: a new insight: validation, slug from the title, publish stamps a date, edit, delete',
  { tag: '@db' },
  async ({ page }) => {
    await openTab(page, 'Blog');
    await page.getByRole('button', { name: 'New Insight' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Insight' });
    await dialog.getByRole('button', { name: 'Create Insight' }).click();
    for (const message of [
      'Title is required',
      'Slug is required',
      'Summary must be at least 10 characters',
      'Content must be at least 50 characters',
      'Author name is required',
      'Author title is required',
    ]) {
      await expect(dialog.getByText(message, { exact: true })).toBeVisible();
    }
    const id = unique();
    const title = `Supplier Vetting ${id}`;
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await expect(dialog.getByLabel('Slug')).toHaveValue(`supplier-vetting-${id}`);
    await dialog.getByLabel('Slug').fill(`Supplier Vetting ${id}!`);
    await expect(dialog.getByLabel('Slug')).toHaveValue(`supplier-vetting-${id}`);
    await dialog.getByLabel('Category').selectOption('case_studies');
    await dialog.getByLabel('Summary').fill('How we vet suppliers.');
    await dialog
      .getByLabel('Content', { exact: true })
      .fill('Every supplier is checked for TAA and BAA compliance before anything ships to an agency.');
    await expect(dialog.getByLabel('Read time (minutes)')).toHaveValue('5');
    await dialog.getByLabel('Author name').fill('Jane Doe');
    await dialog.getByLabel('Author title').fill('Principal');
    await dialog.getByLabel('Tags (comma-separated)').fill('vetting, , compliance ');
    await dialog.getByRole('button', { name: 'Create Insight' }).click();
    await expect(toast(page)).toContainText('Insight created');

    const row = page.getByRole('row').filter({ hasText: title });
    await expect(row.getByRole('cell', { name: 'Case Studies' })).toBeVisible();
    await expect(row.getByText('Not published')).toBeVisible();
    await expect(row.getByRole('link', { name: `Preview ${title} (opens in a new tab)` })).toHaveAttribute(
      'href',
      `/preview/insights/supplier-vetting-${id}`,
    );

    await row.getByRole('switch', { name: `Published: ${title}` }).click();
    await expect(toast(page)).toContainText('Status updated');
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
    await expect(row.getByText(today)).toBeVisible();
    await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'true');

    await row.getByRole('button', { name: `Edit ${title}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Insight' });
    await expect(edit.getByLabel('Tags (comma-separated)')).toHaveValue('vetting, compliance');
    await edit.getByLabel('Author name').fill('John Roe');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page)).toContainText('Insight updated');
    await expect(row.getByText('John Roe')).toBeVisible();
    await expect(row.getByText(today)).toBeVisible();

    await row.getByRole('button', { name: `Delete ${title}` }).click();
    await page.getByRole('alertdialog', { name: 'Delete insight?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page)).toContainText('Insight deleted');
    await expect(row).toHaveCount(0);
  },
);

test('[ADMIN][BLOG]: the text editor writes Markdown with its toolbar and previews it as the article page will show it; nothing in it runs', async ({
  page,
}) => {
  await openTab(page, 'Blog');
  await page.getByRole('button', { name: 'New Insight' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Insight' });
  const content = dialog.getByLabel('Content', { exact: true });
  const toolbar = dialog.getByRole('toolbar', { name: 'Formatting' });
  const preview = dialog.getByRole('region', { name: 'Preview' });

  await content.fill('Compliance matters');
  // The last word selected, then Bold: the marks around it, the word still selected.
  await content.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(11, 18));
  await toolbar.getByRole('button', { name: 'Bold' }).click();
  await expect(content).toHaveValue('Compliance **matters**');
  await expect(content).toBeFocused();
  expect(await content.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd))).toBe('matters');
  await expect(preview.locator('strong')).toHaveText('matters');

  // Keyboard only: a new line, the Heading button, then typing the heading.
  await content.press('End');
  await content.press('Enter');
  await content.pressSequentially('Checklist');
  await toolbar.getByRole('button', { name: 'Heading' }).focus();
  await page.keyboard.press('Enter');
  await expect(content).toBeFocused();
  await expect(content).toHaveValue('Compliance **matters**\n## Checklist');
  await expect(preview.getByRole('heading', { level: 2, name: 'Checklist' })).toBeVisible();

  await content.press('End');
  await content.press('Enter');
  await content.pressSequentially('SAM');
  await content.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(el.value.length - 3, el.value.length));
  await toolbar.getByRole('button', { name: 'Link' }).click();
  // The address is selected, ready to be typed over.
  await expect(content).toBeFocused();
  expect(await content.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd))).toBe('https://');
  await page.keyboard.type('https://sam.gov');
  await expect(preview.getByRole('link', { name: 'SAM' })).toHaveAttribute('href', 'https://sam.gov');
  await expect(preview.getByRole('link', { name: 'SAM' })).toHaveAttribute('rel', 'noopener');

  for (const name of ['Italic', 'Bulleted list', 'Quote']) await expect(toolbar.getByRole('button', { name })).toBeVisible();

  // What tries to run stays text or is no link at all.
  await content.fill(
    '[click](javascript:window.__xss=1)\n<img src=x onerror="window.__xss=1">\n<script>window.__xss=1</script>\n![x](x" onerror="window.__xss=1)',
  );
  await expect(preview).toContainText('<script>window.__xss=1</script>');
  await expect(preview.locator('img, script, a[href^="javascript"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const discard = page.getByRole('alertdialog');
  if (await discard.isVisible()) await discard.getByRole('button', { name: /Discard/ }).click();
});
