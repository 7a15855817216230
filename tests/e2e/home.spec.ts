import { expect, test } from './fixtures';

test('[SITE][HOME]: the home page is built from the database', async ({ page, request }) => {
  const header = await (await request.get('/api/content/header/active')).json();
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(header.title);
  await expect(page.getByRole('link', { name: 'Request Quick Quote' }).first()).toHaveAttribute('href', '/contact');
  await expect(page.getByRole('link', { name: 'View Capabilities' })).toHaveAttribute('href', '/capabilities');
  for (const title of ['Expert Leadership', 'Tailored Solutions', 'Measurable Results']) {
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  }
  // The sample figures are not published until the owner confirms them in the Company tab.
  await expect(page.getByText('98%')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Results' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Explore Our Federal Procurement Solutions' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/contact');
  await expect(page.getByRole('link', { name: 'View Services' })).toHaveAttribute('href', '/services');
});

test('[SITE][HOME]: served compressed, with an ETag and a CSP, and no framework JavaScript', async ({ request, page }) => {
  const res = await request.get('/', { headers: { 'accept-encoding': 'br' } });
  expect(res.headers()['content-encoding']).toBe('br');
  expect(res.headers()['etag']).toBeTruthy();
  expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await page.goto('/');
  expect(scripts).toEqual([]);
});

test('[SITE][404]: unknown paths answer 404 with the not-found page', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
});

test('[SITE][HEADER]: the mobile menu opens, and closes when a link is clicked', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const toggle = page.getByRole('button', { name: 'Menu' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu.getByRole('link', { name: 'Home' })).toBeVisible();
  await menu.getByRole('link', { name: 'Home' }).click();
  await expect(menu).toBeHidden();
});

test('[SITE][HEADER]: the header gains a shadow past 10 px of scroll', async ({ page }) => {
  await page.goto('/');
  const header = page.locator('#site-header');
  await expect(header).not.toHaveClass(/shadow-md/);
  await page.mouse.wheel(0, 400);
  await expect(header).toHaveClass(/shadow-md/);
});

test('[SITE][HEADER]: without JavaScript the small-screen menu shows its links and no dead button', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, baseURL });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    for (const name of ['Home', 'Services', 'Insights', 'About', 'Contact']) await expect(menu.getByRole('link', { name })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Login' })).toHaveCount(0);
    // At desktop width the mobile menu stays out of the way.
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(menu).toBeHidden();
  } finally {
    await context.close();
  }
});

test('[SITE][LAYOUT]: a long unbroken word or URL wraps instead of widening the page', async ({ page }) => {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/about');
    await page
      .locator('main p')
      .first()
      .evaluate((p) => (p.textContent = `https://example.com/${'y'.repeat(400)}`));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
});
