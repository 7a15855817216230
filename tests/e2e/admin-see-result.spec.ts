import { expect, openTab, restoreRecord, test, unique } from './helpers/admin';

test(
  '[ADMIN][PUBLISH]: after a save, "View on site" links to the changed page once it is live; the status stays in view',
  { tag: '@db' },
  async ({ page }) => {
    test.setTimeout(120_000);
    const [intro] = (await (await page.request.get('/api/content/intro')).json()) as { id: number; title: string }[];
    const title = `Partner in Procurement ${unique()}`;
    try {
      await openTab(page, 'Homepage');
      const editor = page.getByRole('region', { name: 'Introduction Content' });
      await editor.getByRole('button', { name: 'Edit Introduction Content' }).click();
      await editor.getByLabel('Title').fill(title);
      await editor.getByRole('button', { name: 'Save Changes' }).click();
      const status = page.getByRole('banner');
      const view = status.getByRole('link', { name: /^View on site/ });
      await expect(view).toBeVisible({ timeout: 90_000 });
      await expect(view).toHaveAttribute('href', '/');
      await expect(status.getByText(/^Live since \d{1,2}:\d{2} [AP]M \(\d+ s ago\)$/)).toBeVisible();
      // The page it links to shows the change.
      expect(await (await page.request.get('/')).text()).toContain(title);

      // Sticky: scrolled to the bottom of a long tab, the status is still on screen.
      await page.mouse.wheel(0, 5000);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
      const box = (await status.boundingBox())!;
      expect(box.y).toBeLessThanOrEqual(0.5);
      await expect(view).toBeInViewport();
    } finally {
      await restoreRecord(page, '/api/content/intro', (id) => `/api/content/intro/${id}`, intro!.id, { title: intro!.title });
    }
  },
);
