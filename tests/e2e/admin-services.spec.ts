import { expect, openTab, restoreRecord, test, toast, unique } from './helpers/admin';

// Several saves and refetches per test on a 2-core machine shared with rebuilds: triple the timeout.
test.slow();

test('[ADMIN][SERVICES]: add a service (validation first), edit it, delete it with confirmation', async ({ page }) => {
  await openTab(page, 'Services');
  const card = page.getByRole('region', { name: 'Services', exact: true });
  await card.getByRole('button', { name: 'Add Service' }).click();
  await card.getByRole('button', { name: 'Create' }).click();
  await expect(card.getByText('Service name is required')).toBeVisible();
  await expect(card.getByText('Description is required')).toBeVisible();
  await expect(card.getByText('Icon is required')).toBeVisible();
  await expect(card.getByText('Recommended size 1000x600.')).toBeVisible();

  const title = `Bid Support ${unique()}`;
  await card.getByLabel('Service name').fill(title);
  await card.getByLabel('Description', { exact: true }).fill('We help you bid on federal work.');
  await card.getByLabel('Icon').selectOption({ label: 'Team' });
  await expect(card.getByLabel('Display order')).toHaveValue('3');
  await card.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toContainText('Service created');
  const item = card.getByRole('listitem').filter({ hasText: title });
  await expect(item).toBeVisible();

  await item.getByRole('button', { name: `Edit ${title}` }).click();
  await card.getByRole('switch', { name: 'Active (shown on the website)' }).click();
  await card.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page)).toContainText('Service updated');
  await expect(item.getByText('Inactive')).toBeVisible();

  await item.getByRole('button', { name: `Delete ${title}` }).click();
  await page.getByRole('alertdialog', { name: 'Delete service?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page)).toContainText('Service deleted');
  await expect(item).toHaveCount(0);
});

test('[ADMIN][SERVICES]: the services hero is edited; an edit based on a stale version is refused', async ({ page }) => {
  await openTab(page, 'Services');
  const hero = page.getByRole('region', { name: 'Services Hero' });
  const [original] = await (await page.request.get('/api/content/services_hero')).json();
  await hero.getByRole('button', { name: 'Edit Services Hero' }).click();
  await hero.getByLabel('Description').fill('');
  await hero.getByRole('button', { name: 'Save Changes' }).click();
  await expect(hero.getByText('Description is required')).toBeVisible();

  // Another administrator saves first: this form's version is now stale.
  await page.request.patch(`/api/content/${original.id}`, { data: { title: 'Changed elsewhere', version: original.version } });
  await hero.getByLabel('Description').fill('A description that will not be saved.');
  await hero.getByRole('button', { name: 'Save Changes' }).click();
  // The spec's 'Failed to update Services Hero content: {message}', the message in plain words (no status code).
  await expect(toast(page)).toContainText('Failed to update Services Hero content: This item was changed by someone else');
  await expect(toast(page)).not.toContainText('409');
  await restoreRecord(page, '/api/content/services_hero', (id) => `/api/content/${id}`, original.id, { title: original.title });
});

test('[ADMIN][SERVICES]: a product capability card added in the Services tab shows on the federal page; deleting asks first', async ({
  page,
}) => {
  await openTab(page, 'Services');
  const card = page.getByRole('region', { name: 'Product Capabilities' });
  await expect(card.getByText('Material Handling')).toBeVisible();
  const title = `Lab Equipment ${unique()}`;
  await card.getByRole('button', { name: 'Add Feature' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Feature' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Description').fill('Microscopes, centrifuges and lab benches.');
  await dialog.getByLabel('Icon').selectOption({ label: 'Package' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toContainText('Feature created');

  // Published: the card is on the federal page (a visitor's request, no session).
  const visitor = await page.context().browser()!.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    await expect
      .poll(async () => (await (await visitor.request.get('/services/federal')).text()).includes(title), { timeout: 60_000 })
      .toBe(true);
  } finally {
    await visitor.close();
  }

  await card.getByRole('button', { name: `Delete ${title}` }).click();
  await page.getByRole('alertdialog', { name: 'Delete feature?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page)).toContainText('Feature deleted');
  await expect(card.getByText(title)).toHaveCount(0);
});
