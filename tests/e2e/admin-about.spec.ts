import { expect, openTab, restoreRecord, test, toast, unique } from './helpers/admin';

// Several saves and refetches per test on a 2-core machine shared with rebuilds: triple the timeout.
test.slow();

test('[ADMIN][ABOUT]: main content shows subtitle and body separately and saves them joined', async ({ page }) => {
  await openTab(page, 'About');
  const main = page.getByRole('region', { name: 'Main Content' });
  const [original] = await (await page.request.get('/api/content/about')).json();
  await expect(main.getByText('A small woman-owned business connecting federal buyers with trusted suppliers.')).toBeVisible();
  await main.getByRole('button', { name: 'Edit Content' }).click();
  await main.getByLabel('Subtitle').fill('');
  await main.getByLabel('Content', { exact: true }).fill('short');
  await main.getByRole('button', { name: 'Save Changes' }).click();
  await expect(main.getByText('Subtitle is required')).toBeVisible();
  await expect(main.getByText('Content must be at least 10 characters')).toBeVisible();
  await main.getByLabel('Subtitle').fill('A new subtitle line.');
  await main.getByLabel('Content', { exact: true }).fill('A new body that is long enough.');
  await main.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page)).toContainText('Content updated');
  const [saved] = await (await page.request.get('/api/content/about')).json();
  expect(saved.content).toBe('A new subtitle line.\n\nA new body that is long enough.');
  await restoreRecord(page, '/api/content/about', (id) => `/api/content/about/${id}`, original.id, { content: original.content });
});

test('[ADMIN][ABOUT]: mission needs 10 characters', async ({ page }) => {
  await openTab(page, 'About');
  await page.getByRole('tab', { name: 'Mission' }).click();
  const mission = page.getByRole('region', { name: 'Mission' });
  await mission.getByRole('button', { name: 'Edit Mission' }).click();
  await mission.getByLabel('Mission statement').fill('Too short');
  await mission.getByRole('button', { name: 'Save Changes' }).click();
  await expect(mission.getByText('Mission statement must be at least 10 characters')).toBeVisible();
  await mission.getByRole('button', { name: 'Cancel' }).click();
});

test('[ADMIN][ABOUT]: why-choose-us cards: add with the default icon, delete with confirmation', async ({ page }) => {
  await openTab(page, 'About');
  await page.getByRole('tab', { name: 'Why Choose Us' }).click();
  const card = page.getByRole('region', { name: 'Why Choose Us' });
  await expect(card.getByRole('row').filter({ hasText: 'Certified Experts' })).toBeVisible();
  await card.getByRole('button', { name: 'Add Feature' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Feature' });
  await expect(dialog.getByLabel('Icon')).toHaveValue('fas fa-star');
  const title = `Reason ${unique()}`;
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Description').fill('Too short');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Description must be at least 10 characters')).toBeVisible();
  await dialog.getByLabel('Description').fill('A reason that is long enough.');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toContainText('Feature created');
  const row = card.getByRole('row').filter({ hasText: title });
  await row.getByRole('button', { name: `Delete ${title}` }).click();
  await page.getByRole('alertdialog', { name: 'Delete feature?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page)).toContainText('Feature deleted');
  await expect(row).toHaveCount(0);
});
