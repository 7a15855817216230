import { expect, openTab, restoreRecord, test, toast, unique } from './helpers/admin';

// Several saves and refetches per test on a 2-core machine shared with rebuilds: triple the timeout.
test.slow();

test('[ADMIN][HOMEPAGE]: header content: validation message, then an edit saved and shown', async ({ page, baseURL }) => {
  await openTab(page, 'Homepage');
  const card = page.getByRole('region', { name: 'Header Content' });
  const original = await (await page.request.get('/api/content/header/active')).json();
  await card.getByRole('button', { name: 'Edit Header Content' }).click();
  const darkLogo = card.getByRole('group', { name: 'Logo on dark background' });
  await darkLogo.getByRole('button', { name: 'Remove image' }).click();
  await card.getByRole('button', { name: 'Save Changes' }).click();
  await expect(card.getByText('Dark mode logo URL is required')).toBeVisible();
  await darkLogo.getByLabel('or paste a URL').fill(`${baseURL}/images/logo.svg`);
  await darkLogo.getByRole('button', { name: 'Add' }).click();
  await expect(darkLogo.getByRole('img')).toHaveAttribute('src', `${baseURL}/images/logo.svg`);
  await card.getByRole('button', { name: 'Suggested background 2' }).click();
  await card.getByLabel('Highlight box title (optional)').fill('Trusted by agencies');
  await card.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page)).toContainText('Header updated');
  await expect(card.getByText('Trusted by agencies')).toBeVisible();
  await expect(card.getByText(/photo-1497366216548/)).toBeVisible();
  await restoreRecord(page, '/api/content/header', (id) => `/api/content/header/${id}`, original.id, {
    backgroundImage: original.backgroundImage,
    boxHeading: null,
    logoDark: original.logoDark,
  });
});

test('[ADMIN][HOMEPAGE]: header CTA: a new inactive version, then edited', async ({ page }) => {
  await openTab(page, 'Homepage');
  const card = page.getByRole('region', { name: 'Header Call-to-Action Button' });
  await expect(card.getByText('Only one version can be active at a time')).toBeVisible();
  await card.getByRole('button', { name: 'Add Version' }).click();
  const text = `Call ${unique()}`;
  await card.getByLabel('Button text').fill(text);
  await card.getByLabel('Button link').fill('javascript:alert(1)');
  await card.getByRole('switch', { name: 'Active version' }).click();
  await card.getByRole('button', { name: 'Create' }).click();
  await expect(card.getByText('Link must be a relative path, an http(s) URL, mailto: or tel:')).toBeVisible();
  await card.getByLabel('Button link').fill('tel:+15550100');
  await card.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toContainText('Content updated');
  await card.getByRole('button', { name: `Edit ${text}` }).click();
  await card.getByLabel('Button style').selectOption('outline');
  await card.getByRole('button', { name: 'Save Changes' }).click();
  const item = card.getByRole('listitem').filter({ hasText: text });
  await expect(item.getByText('outline')).toBeVisible();
  await expect(item.getByText('Active')).toHaveCount(0);
});

test('[ADMIN][HOMEPAGE]: feature cards: add, edit, delete with confirmation', async ({ page }) => {
  await openTab(page, 'Homepage');
  const card = page.getByRole('region', { name: 'Home Feature Cards' });
  await card.getByRole('button', { name: 'Add Feature' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Feature' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await expect(dialog.getByText('Description is required')).toBeVisible();
  await expect(dialog.getByText('Icon is required')).toBeVisible();
  const title = `Card ${unique()}`;
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Description').fill('A card made by the e2e test.');
  // Home cards pick from the service icons; the icon's name is stored.
  await dialog.getByLabel('Icon').selectOption({ label: 'Shield' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toContainText('Feature created');
  await expect(dialog).toBeHidden();
  const row = card.getByRole('row').filter({ hasText: title });
  await expect(row).toBeVisible();
  const stored = ((await (await page.request.get('/api/features')).json()) as { title: string; icon: string }[]).find(
    (f) => f.title === title,
  );
  expect(stored?.icon).toBe('shield');

  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Feature' });
  await edit.getByRole('switch', { name: 'Active (shown on the website)' }).click();
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page)).toContainText('Feature updated');
  await expect(row.getByText('Inactive')).toBeVisible();

  await row.getByRole('button', { name: `Delete ${title}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete feature?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Delete ${title}` }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page)).toContainText('Feature deleted');
  await expect(row).toHaveCount(0);
});

test('[ADMIN][HOMEPAGE]: introduction and bottom call to action are edited in place', async ({ page }) => {
  await openTab(page, 'Homepage');
  const intro = page.getByRole('region', { name: 'Introduction Content' });
  const original = await (await page.request.get('/api/content/intro/active')).json();
  await intro.getByRole('button', { name: 'Edit Introduction Content' }).click();
  await intro.getByLabel('Content').fill('<p>Hello&nbsp;agencies</p>');
  await intro.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page)).toContainText('Intro updated');
  await expect(intro.getByText('Hello agencies', { exact: true })).toBeVisible();
  await restoreRecord(page, '/api/content/intro', (id) => `/api/content/intro/${id}`, original.id, { content: original.content });

  const cta = page.getByRole('region', { name: 'Call to Action Section' });
  await cta.getByRole('button', { name: 'Edit Call to Action Section' }).click();
  await cta.getByLabel('Title').fill('');
  await cta.getByRole('button', { name: 'Save Changes' }).click();
  await expect(cta.getByText('Title is required')).toBeVisible();
  await cta.getByRole('button', { name: 'Cancel' }).click();
  // The emptied title is an unsaved change: Cancel asks before dropping it.
  await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
  await expect(cta.getByRole('button', { name: 'Edit Call to Action Section' })).toBeVisible();
});
