import { expect, test } from './fixtures';
import { HOME_BROTLI_BUDGET, ISLAND_JS_BUDGET, ISLAND_PAGES, PUBLIC_PAGES } from './site-helpers';

/** The scripts a page loads, and their gzip sizes as our server sends them. */
async function scriptBytes(page: import('@playwright/test').Page, request: import('@playwright/test').APIRequestContext, path: string) {
  const urls = new Set<string>();
  page.on('request', (r) => {
    if (r.resourceType() === 'script') urls.add(r.url());
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  await page.mouse.wheel(0, 5000); // client:visible islands load once scrolled into view
  await page.waitForLoadState('networkidle');
  let total = 0;
  for (const url of urls) {
    expect(new URL(url).origin).toBe(new URL(page.url()).origin);
    const res = await request.get(url, { headers: { 'accept-encoding': 'gzip' } });
    // Files under 256 bytes are sent as they are: compressing them saves nothing.
    if (res.headers()['content-encoding'] !== 'gzip') expect(Number(res.headers()['content-length'])).toBeLessThan(256);
    total += Number(res.headers()['content-length']);
  }
  return { urls: [...urls], total };
}

test.describe('[SITE][BUDGET]', () => {
  for (const p of PUBLIC_PAGES.filter((x) => !ISLAND_PAGES.includes(x.path))) {
    test(`${p.path} loads no JavaScript file`, async ({ page, request }) => {
      const { urls } = await scriptBytes(page, request, p.path);
      expect(urls).toEqual([]);
    });
  }

  for (const path of ISLAND_PAGES) {
    test(`${path} loads at most 75 KB gzip of JavaScript, all first-party`, async ({ page, request }) => {
      const { urls, total } = await scriptBytes(page, request, path);
      expect(urls.length).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(ISLAND_JS_BUDGET);
    });
  }

  test('home HTML + CSS is at most 14 KB brotli', async ({ page, request }) => {
    const css = new Set<string>();
    page.on('request', (r) => r.resourceType() === 'stylesheet' && css.add(r.url()));
    await page.goto('/');
    let total = 0;
    for (const url of [new URL('/', page.url()).toString(), ...css]) {
      const res = await request.get(url, { headers: { 'accept-encoding': 'br' } });
      expect(res.headers()['content-encoding']).toBe('br');
      total += Number(res.headers()['content-length']);
    }
    expect(total).toBeLessThanOrEqual(HOME_BROTLI_BUDGET);
  });

  test('no page requests anything from another host', async ({ page, baseURL }) => {
    const foreign: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.protocol.startsWith('http') && u.host !== new URL(baseURL!).host) foreign.push(r.url());
    });
    for (const p of PUBLIC_PAGES) await page.goto(p.path, { waitUntil: 'networkidle' });
    expect(foreign).toEqual([]);
  });

  test('hashed assets are immutable, pages revalidate', async ({ page, request }) => {
    const html = await request.get('/contact');
    expect(html.headers()['cache-control']).toContain('must-revalidate');
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto('/contact', { waitUntil: 'networkidle' });
    expect(scripts.length).toBeGreaterThan(0);
    const asset = await request.get(scripts[0]!);
    expect(asset.headers()['cache-control']).toContain('immutable');
  });
});
