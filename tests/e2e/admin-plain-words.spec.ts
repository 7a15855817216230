import { test as anon } from './fixtures';
import { expect, openTab, test, unique } from './helpers/admin';

anon('[AUTH][PLAIN]: a wrong password is said by the form itself, beside the fields', async ({ page }) => {
  await page.goto('/auth');
  await page.getByLabel('Username or Email').fill('admin');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  const inline = page.getByTestId('sign-in-error');
  await expect(inline).toHaveText('Invalid username or password');
  // Inside the form, in a live region, so a screen reader announces it where the user is.
  await expect(page.locator('form [aria-live] [data-testid="sign-in-error"]')).toHaveCount(1);
});

test('[ADMIN][PLAIN]: the Activity list tells a change in a sentence', async ({ page }) => {
  const name = `Plain Words Service ${unique()}`;
  const created = await page.request.post('/api/services', {
    data: { title: name, description: 'A service to be renamed.', icon: 'chart-bar', isActive: true, displayOrder: 90 },
  });
  expect(created.status()).toBe(201);
  const service = (await created.json()) as { id: number; version: number };
  const patched = await page.request.patch(`/api/services/${service.id}`, {
    data: { description: 'A service whose description changed.', version: service.version },
  });
  expect(patched.ok()).toBe(true);
  try {
    await openTab(page, 'Services');
    await page.getByRole('button', { name: 'Activity' }).click();
    const dialog = page.getByRole('dialog', { name: 'Activity' });
    await expect(
      dialog.getByText(
        `Changed the description of the service “${name}” from “A service to be renamed.” to “A service whose description changed.”.`,
      ),
    ).toBeVisible();
    await expect(dialog.getByText(`Added the service “${name}”.`)).toBeVisible();
    await expect(dialog.getByText(/updated service #/)).toHaveCount(0);
  } finally {
    await page.request.delete(`/api/services/${service.id}`);
  }
});
