import { expect, openTab, test, toast, unique } from './helpers/admin';

// Several saves and refetches per test on a 2-core machine shared with rebuilds: triple the timeout.
test.slow();

test('[ADMIN][BLOG]: a new insight: validation, slug from the title, publish stamps a date, edit, delete', async ({ page }) => {
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
});
