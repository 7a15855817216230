import type { Page } from '@playwright/test';
import { expect, openTab, test, unique } from './helpers/admin';
import { axeViolations } from './axe';

// Tab code loads, dialogs and reloads on a 2-core machine shared with rebuilds: triple the timeout.
test.slow();

const prompt = (page: Page) => page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });

/** Reloads the page, accepting the browser's "Leave site?" prompt; true when that prompt came. */
async function reloadPastPrompt(page: Page): Promise<boolean> {
  let asked = false;
  page.once('dialog', (dialog) => {
    asked = dialog.type() === 'beforeunload';
    void dialog.accept();
  });
  await page.reload();
  return asked;
}

const drafts = (page: Page) => page.evaluate(() => Object.keys(window.localStorage).filter((k) => k.startsWith('backoffice-draft:')));

test('[ADMIN][UNSAVED]: switching tabs with typed text asks; Keep editing keeps it, Discard drops it', async ({ page }) => {
  await openTab(page, 'Homepage');
  const intro = page.getByRole('region', { name: 'Introduction Content' });
  await intro.getByRole('button', { name: /^(Edit|Create) Introduction Content$/ }).click();
  const typed = `Half-written intro ${unique()}`;
  await intro.getByLabel('Title').fill(typed);

  await page.getByRole('tab', { name: 'Services' }).click();
  await expect(prompt(page)).toBeVisible();
  expect(await axeViolations(page, { include: '[role="alertdialog"]' })).toEqual([]);
  await prompt(page).getByRole('button', { name: 'Keep editing' }).click();
  await expect(prompt(page)).toBeHidden();
  await expect(page.getByRole('tab', { name: 'Homepage' })).toHaveAttribute('aria-selected', 'true');
  await expect(intro.getByLabel('Title')).toHaveValue(typed);

  await page.getByRole('tab', { name: 'Services' }).click();
  await prompt(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('tab', { name: 'Services' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/#services$/);
  await page.getByRole('tab', { name: 'Homepage' }).click();
  await expect(prompt(page)).toBeHidden();
  await expect(intro.getByRole('button', { name: /^(Edit|Create) Introduction Content$/ })).toBeVisible();
  await expect(page.getByText(typed)).toHaveCount(0);
});

test('[ADMIN][UNSAVED]: an untouched editor switches tabs without asking; typing back to the stored text is not a change', async ({
  page,
}) => {
  await openTab(page, 'About');
  const main = page.getByRole('region', { name: 'Main Content' });
  await main.getByRole('button', { name: 'Edit Content' }).click();
  const title = main.getByLabel('Title', { exact: true });
  const stored = await title.inputValue();
  await title.fill(`${stored} x`);
  await title.fill(stored);
  await page.getByRole('tab', { name: 'Mission' }).click();
  await expect(page.getByRole('tab', { name: 'Mission' })).toHaveAttribute('aria-selected', 'true');
  await expect(prompt(page)).toBeHidden();
  // The About page's own tabs are guarded too.
  const mission = page.getByRole('region', { name: 'Mission' });
  await mission.getByRole('button', { name: 'Edit Mission' }).click();
  await mission.getByLabel('Mission statement').fill('A mission that was never saved.');
  await page.getByRole('tab', { name: 'Main Content' }).click();
  await expect(prompt(page)).toBeVisible();
  await prompt(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('tab', { name: 'Main Content' })).toHaveAttribute('aria-selected', 'true');
});

test('[ADMIN][UNSAVED]: Escape and ✕ on a dialog with changes ask first (by keyboard); a clean dialog just closes', async ({ page }) => {
  await openTab(page, 'Blog');
  await page.getByRole('button', { name: 'New Insight' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Insight' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(prompt(page)).toBeHidden();

  await page.getByRole('button', { name: 'New Insight' }).click();
  const typed = `An article in progress ${unique()}`;
  await dialog.getByLabel('Title', { exact: true }).fill(typed);
  await page.keyboard.press('Escape');
  await expect(prompt(page)).toBeVisible();
  // Focus starts on the safe choice: Enter keeps editing.
  await expect(prompt(page).getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(prompt(page)).toBeHidden();
  await expect(dialog.getByLabel('Title', { exact: true })).toHaveValue(typed);
  // Escape on the prompt itself also keeps the text (once the prompt has the focus).
  await page.keyboard.press('Escape');
  await expect(prompt(page).getByRole('button', { name: 'Keep editing' })).toBeFocused();
  // Radix registers a new layer one render after it focuses it: an Escape in between is the
  // dialog's (which keeps the prompt open). A person cannot press that fast; a busy test can, so
  // the Escape is pressed again until the prompt has taken it.
  await expect(async () => {
    await page.keyboard.press('Escape');
    await expect(prompt(page)).toBeHidden({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await expect(dialog).toBeVisible();

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(prompt(page)).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(prompt(page).getByRole('button', { name: 'Discard changes' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'New Insight' }).click();
  await expect(dialog.getByLabel('Title', { exact: true })).toHaveValue('');
  await expect(dialog.getByRole('button', { name: 'Restore draft' })).toHaveCount(0);
  expect(await drafts(page)).toEqual([]);
});

test('[ADMIN][UNSAVED]: a form’s Cancel asks too when it has changes', async ({ page }) => {
  await openTab(page, 'Services');
  await page.getByRole('button', { name: 'Add Service' }).click();
  await page.getByLabel('Service name').fill('A service not saved');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(prompt(page)).toBeVisible();
  await prompt(page).getByRole('button', { name: 'Keep editing' }).click();
  await expect(page.getByLabel('Service name')).toHaveValue('A service not saved');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await prompt(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByLabel('Service name')).toHaveCount(0);
});

test('[ADMIN][UNSAVED]: leaving a two-factor setup half done asks first (the key may already be in the phone)', async ({ page }) => {
  await openTab(page, 'Account');
  await page.getByRole('button', { name: 'Enable 2FA' }).click();
  await expect(page.getByTestId('manual-entry-key')).toBeVisible();
  await page.getByRole('tab', { name: 'Blog' }).click();
  await expect(prompt(page)).toBeVisible();
  await prompt(page).getByRole('button', { name: 'Keep editing' }).click();
  await expect(page.getByTestId('manual-entry-key')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Account' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Blog' }).click();
  await prompt(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('tab', { name: 'Blog' })).toHaveAttribute('aria-selected', 'true');
});

test('[ADMIN][UNSAVED]: a reload asks, and an insight’s draft is offered back; saving clears it', async ({ page }) => {
  await openTab(page, 'Blog');
  await page.getByRole('button', { name: 'New Insight' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Insight' });
  const id = unique();
  const title = `Draft kept through a reload ${id}`;
  const content = 'A long article the owner typed for an hour, and the browser was reloaded by accident before saving it.';
  await dialog.getByLabel('Title', { exact: true }).fill(title);
  await dialog.getByLabel('Content', { exact: true }).fill(content);
  expect(await drafts(page)).toEqual(['backoffice-draft:insight:new']);

  expect(await reloadPastPrompt(page)).toBe(true);
  await page.getByRole('button', { name: 'New Insight' }).click();
  await expect(dialog.getByRole('status')).toContainText('Changes you had not saved');
  await expect(dialog.getByLabel('Title', { exact: true })).toHaveValue('');
  await dialog.getByRole('button', { name: 'Restore draft' }).click();
  await expect(dialog.getByLabel('Title', { exact: true })).toHaveValue(title);
  await expect(dialog.getByLabel('Content', { exact: true })).toHaveValue(content);
  await expect(dialog.getByLabel('Slug')).toHaveValue(`draft-kept-through-a-reload-${id}`);
  // Restored text is unsaved text: closing still asks.
  await page.keyboard.press('Escape');
  await expect(prompt(page)).toBeVisible();
  await prompt(page).getByRole('button', { name: 'Keep editing' }).click();

  await dialog.getByLabel('Summary').fill('Kept through a reload.');
  await dialog.getByLabel('Author name').fill('Jane Doe');
  await dialog.getByLabel('Author title').fill('Principal');
  await dialog.getByRole('button', { name: 'Create Insight' }).click();
  await expect(dialog).toBeHidden();
  expect(await drafts(page)).toEqual([]);
  // Saved: leaving asks nothing.
  expect(await reloadPastPrompt(page)).toBe(false);

  const list = (await (await page.request.get('/api/admin/insights')).json()) as { id: number; title: string }[];
  const created = list.find((i) => i.title === title);
  expect(created).toBeDefined();
  expect((await page.request.delete(`/api/admin/insights/${created!.id}`)).ok()).toBe(true);
});

test('[ADMIN][UNSAVED]: About’s main text is kept as a draft after a reload; discarding clears it', async ({ page }) => {
  await openTab(page, 'About');
  const main = page.getByRole('region', { name: 'Main Content' });
  await main.getByRole('button', { name: 'Edit Content' }).click();
  const body = `An about text written at length, not saved yet ${unique()}.`;
  await main.getByLabel('Content', { exact: true }).fill(body);

  expect(await reloadPastPrompt(page)).toBe(true);
  await expect(page.getByRole('tab', { name: 'About' })).toHaveAttribute('aria-selected', 'true');
  await expect(main.getByRole('status')).toContainText('kept in this browser');
  await main.getByRole('button', { name: 'Edit Content' }).click();
  await main.getByRole('button', { name: 'Restore draft' }).click();
  await expect(main.getByLabel('Content', { exact: true })).toHaveValue(body);

  await main.getByRole('button', { name: 'Cancel' }).click();
  await prompt(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(main.getByRole('button', { name: 'Edit Content' })).toBeVisible();
  await expect(main.getByRole('status')).toHaveCount(0);
  expect(await drafts(page)).toEqual([]);
  expect(await reloadPastPrompt(page)).toBe(false);
  await expect(main.getByRole('button', { name: 'Edit Content' })).toBeVisible();
  await expect(main.getByText('kept in this browser')).toHaveCount(0);
});
