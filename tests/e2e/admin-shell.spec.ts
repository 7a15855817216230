import { test as anon } from './fixtures';
import { expect, test } from './helpers/admin';

anon('[ADMIN][SHELL]: signed out, /admin redirects to /auth', async ({ page }) => {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/auth$/);
});

test('[ADMIN][SHELL]: header badge and the ten tabs, drawn as a frame with skeletons before the app runs', async ({ page }) => {
  // The page's scripts are held back: what shows is the static HTML alone.
  const held: (() => Promise<void>)[] = [];
  let holding = true;
  await page.route('**/_astro/*.js', (route) => (holding ? void held.push(() => route.continue()) : route.continue()));
  await page.goto('/admin', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { name: 'Back Office' })).toBeVisible();
  await expect(page.getByLabel('Loading the back office')).toBeVisible();
  const contacts = page.locator('main').getByText('Contacts', { exact: true });
  const before = (await contacts.boundingBox())!;
  holding = false;
  await Promise.all(held.map((go) => go()));
  await expect(page.getByText('admin (Admin)')).toBeVisible();
  // The app draws the same frame: the tabs are where their stand-ins were.
  const after = (await page.getByRole('tab', { name: /^Contacts/ }).boundingBox())!;
  expect(Math.abs(after.y - before.y)).toBeLessThanOrEqual(1);
  expect(Math.abs(after.x - before.x)).toBeLessThanOrEqual(1);
  const tabs = page.getByRole('tablist', { name: 'Back office sections' }).getByRole('tab');
  // The Contacts tab also shows how many inquiries are new, when there are any.
  await expect(tabs).toHaveText([
    /^Contacts(\d+ \(\d+ new\))?$/,
    'Visits',
    'Homepage',
    'Services',
    'Documents',
    'About',
    'Blog',
    'Account',
    'Templates',
    'Company',
  ]);
  await expect(page.getByRole('heading', { name: 'Contact Submissions' })).toBeVisible();
  await page.getByRole('tab', { name: 'Templates' }).click();
  await expect(page.getByRole('heading', { name: 'Email Templates' })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
});

test('[ADMIN][SHELL]: while the server cannot be reached, the header says so instead of "Live since"', async ({ page }) => {
  await page.clock.install();
  await page.goto('/admin');
  await expect(page.getByText('admin (Admin)')).toBeVisible();
  const header = page.getByRole('banner');
  const unreachable = header.getByText("Cannot reach the server: the site's status is unknown.");
  // The first answer is in (the polls are timed from here on).
  await expect(header.getByText(/^Live since/)).toBeVisible();
  await expect(unreachable).toBeHidden();
  await page.route('**/api/admin/publish/status', (route) => route.abort('connectionrefused'));
  await page.clock.fastForward(31_000);
  await expect(unreachable).toBeVisible();
  await expect(header.getByText(/^Live since/)).toBeHidden();
  // Back as soon as the server answers again.
  await page.unroute('**/api/admin/publish/status');
  await page.clock.fastForward(6000);
  await expect(unreachable).toBeHidden();
});

test('[ADMIN][SHELL]: each tab’s code is fetched only when the tab is first opened', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await page.goto('/admin');
  await expect(page.getByText('admin (Admin)')).toBeVisible();
  expect(scripts.some((s) => s.includes('blog-tab'))).toBe(false);
  await page.getByRole('tab', { name: 'Blog' }).click();
  await expect(page.getByRole('button', { name: 'New Insight' })).toBeVisible();
  expect(scripts.some((s) => s.includes('blog-tab'))).toBe(true);
});

test('[ADMIN][SHELL]: keyboard moves between tabs; the tab is kept in the URL', async ({ page }) => {
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Contacts' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Visits' })).toBeFocused();
  // Manual activation: a tab opens on Enter or Space, so an editor with changes is asked about once.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'Visits' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/#visits$/);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Visits' })).toHaveAttribute('aria-selected', 'true');
});

test('[ADMIN][ACTIVITY]: the Activity panel lists the latest changes', async ({ page }) => {
  await page.goto('/admin#services');
  await page.getByRole('button', { name: 'Activity' }).click();
  const dialog = page.getByRole('dialog', { name: 'Activity' });
  await expect(dialog).toBeVisible();
  await expect(
    dialog
      .getByText(
        /^(No changes recorded yet|(Added|Changed|Deleted|Renamed|Published|Unpublished|Made|Moved|Marked|Replied|Uploaded|Set up) )/,
      )
      .first(),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('[ADMIN][SHELL]: the form code is fetched with the first form opened, not with a tab', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  const formCode = () => scripts.some((s) => /\/schema-form\.[\w-]+\.js$/.test(s));
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Contact Submissions' })).toBeVisible();
  await page.getByRole('tab', { name: 'Services' }).click();
  await expect(page.getByRole('button', { name: 'Add Service' })).toBeVisible();
  expect(formCode()).toBe(false);
  await page.getByRole('button', { name: 'Add Service' }).click();
  await expect(page.getByLabel('Service name')).toBeVisible();
  expect(formCode()).toBe(true);
  await page.getByRole('button', { name: 'Cancel' }).click();
});
