import { expect, openTab, test } from './helpers/admin';
import { axeViolations } from './axe';
import type { VisitsReport } from '#shared/visits.ts';

/**
 * A scripted visit in a browser that names itself as a phone's (the suite's headless browser
 * calls itself HeadlessChrome, which is counted as the robot it is): it lands from a tagged
 * newsletter link, reads two more pages. Then the owner reads the Visits tab.
 */
test('[VISITS]: a visit from a newsletter link shows in the Visits tab: its source, campaign, pages and device; axe clean at 390 and 1280 px', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const tag = `e2e${Date.now().toString(36)}`;
  // A visitor's own browser: not the administrator's session, which this suite's contexts start with.
  const visitor = await browser.newContext({
    baseURL,
    storageState: { cookies: [], origins: [] },
    userAgent: `Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1 ${tag}`,
    viewport: { width: 390, height: 844 },
  });
  const browsing = await visitor.newPage();
  await browsing.goto(`/?utm_source=${tag}-news&utm_medium=email&utm_campaign=${tag}-spring`);
  await browsing.goto('/about');
  await browsing.goto('/services');
  await visitor.close();

  // Views are written in batches (within 2 s): the figures include this visit once they are.
  const figures = async () => (await (await page.request.get('/api/admin/visits?days=7')).json()) as VisitsReport;
  await expect.poll(async () => (await figures()).sources.find((s) => s.source === `${tag}-news`)?.visitors, { timeout: 20_000 }).toBe(1);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await openTab(page, 'Visits');
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await page.getByLabel('Period').selectOption('7');
    const sources = page.getByRole('region', { name: 'Where visitors came from' });
    const row = sources.getByRole('row', { name: new RegExp(`^${tag}-news`) });
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell')).toHaveText([`${tag}-news`, '1', '0', '0%']);
    const campaign = page.getByRole('region', { name: 'Campaigns' }).getByRole('row', { name: new RegExp(`^${tag}-spring`) });
    await expect(campaign.getByRole('cell')).toHaveText([`${tag}-spring`, '1']);
    await expect(page.getByRole('region', { name: 'Devices' }).getByRole('cell', { name: 'phone', exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Top pages' }).getByRole('cell', { name: '/services', exact: true })).toBeVisible();
    // The chart's figures, as a table a screen reader reads.
    await page.getByText('Visitors and page views by day (table)').click();
    const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
    await expect(page.getByRole('row', { name: new RegExp(`^${today} `) })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeViolations(page, { wcag: true, label: `Visits at ${width}` })).toEqual([]);
  }
});
