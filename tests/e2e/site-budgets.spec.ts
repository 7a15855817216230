import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
    // The form's island loads its script once it is on screen: waited for, not assumed to have
    // come before the network went quiet (on a busy machine the observer may fire later).
    const script = page.waitForRequest((r) => r.resourceType() === 'script');
    await page.goto('/contact');
    const asset = await request.get((await script).url());
    expect(asset.headers()['cache-control']).toContain('immutable');
  });
});

/**
 * A page that reaches the browser in two parts (a slow network, or a busy phone whose parser paints
 * what it has so far) must not move what is already on screen when the rest arrives. The page is
 * served from a local relay that sends the HTML up to `marker`, waits, then sends the rest.
 */
test.describe('[SITE][CLS] a page arriving in two parts moves nothing', () => {
  const cases = [
    // A new install's figures (the hero's dashboard, the results row) wait for the owner's confirmation.
    { path: '/', marker: 'aria-label="Registrations"' },
    { path: '/', marker: 'aria-labelledby="why-us"' },
    { path: '/about', marker: '<img src="/images/art/' },
    { path: '/services/consulting', marker: '<h3 class="mt-4 text-2xl' },
  ];
  let relay: http.Server;
  let relayURL = '';
  let split = { path: '', marker: '' };
  test.beforeAll(async ({ baseURL }) => {
    relay = http.createServer((req, res) => {
      void (async () => {
        const upstream = await fetch(new URL(req.url!, baseURL), { headers: { 'accept-encoding': 'identity' } });
        const body = Buffer.from(await upstream.arrayBuffer());
        const headers: Record<string, string> = {};
        upstream.headers.forEach((v, k) => {
          if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) headers[k] = v;
        });
        res.writeHead(upstream.status, headers);
        const at = req.url === split.path ? body.indexOf(split.marker) : -1;
        if (at < 0) return res.end(body);
        res.write(body.subarray(0, at));
        setTimeout(() => res.end(body.subarray(at)), 600);
      })().catch(() => res.destroy());
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    relayURL = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
  });
  test.afterAll(() => new Promise<void>((r) => relay.close(() => r())));

  for (const c of cases) {
    test(`${c.path} at 1280 px, cut before ${c.marker}`, async ({ page }) => {
      split = c;
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.addInitScript(() => {
        const w = window as unknown as { __shifts: string[] };
        w.__shifts = [];
        new PerformanceObserver((list) => {
          type Shift = PerformanceEntry & { value: number; sources: { node?: Node | null }[] };
          for (const e of list.getEntries() as Shift[]) {
            const nodes = e.sources.map((s) => (s.node instanceof Element ? s.node.outerHTML.slice(0, 80) : String(s.node?.nodeName)));
            w.__shifts.push(`${e.startTime.toFixed(0)} ms: ${e.value} ${nodes.join(' | ')}`);
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const html = await (await fetch(new URL(c.path, relayURL))).text();
      expect(html, 'the marker is on the page').toContain(c.marker);
      await page.goto(relayURL + c.path);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      expect(await page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts)).toEqual([]);
    });
  }
});
