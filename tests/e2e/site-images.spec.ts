import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { expect, test, unique } from './helpers/admin';
import { photoJpeg } from './helpers/photo';
import { axeViolations } from './axe';

/**
 * Photos in the image fields, on the published pages: the header background behind the home
 * hero, the About image, an insight's featured image. The files are answered by the test itself
 * (late, as a real photo over a slow link arrives) so the pages' layout is measured while they load.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });
// The pages as a visitor sees them; only the set-up signs in (a signed-in header shows more links).
test.use({ storageState: { cookies: [], origins: [] } });

const id = unique();
const HERO = `/uploads/images/e2e-hero-${id}.jpg`;
const ABOUT = `/uploads/images/e2e-about-${id}.jpg`;
const FEATURED = `/uploads/images/e2e-featured-${id}.jpg`;
const slug = `pictured-${id}`;
const PHOTO_DELAY_MS = 800;

type Versioned = { id: number; version: number } & Record<string, unknown>;
let admin: APIRequestContext;
let header: Versioned;
let about: Versioned | null;
let insightId: number | undefined;
let photo: Buffer;
/** Two photos uploaded for real and placed inside the article's text (their sizes and variants known). */
let inline: { url: string; width: number; height: number }[] = [];

async function patchActive(section: string, values: Record<string, unknown>) {
  const current = (await (await admin.get(`/api/content/${section}/active`)).json()) as Versioned;
  const res = await admin.patch(`/api/content/${section}/${current.id}`, { data: { ...values, version: current.version } });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Every request for an uploaded image gets the photo, after a delay. */
async function servePhotos(page: Page) {
  const served: string[] = [];
  await page.route('**/uploads/images/**', async (route) => {
    served.push(new URL(route.request().url()).pathname);
    await new Promise((r) => setTimeout(r, PHOTO_DELAY_MS));
    await route.fulfill({ body: photo, contentType: 'image/jpeg' });
  });
  return served;
}

test.beforeAll(async ({ adminState }) => {
  photo = await photoJpeg(1920, 1000);
  admin = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL, storageState: adminState });
  header = (await (await admin.get('/api/content/header/active')).json()) as Versioned;
  about = (await (await admin.get('/api/content/about/active')).json()) as Versioned | null;
  await patchActive('header', { backgroundImage: HERO, backgroundImageAlt: '' });
  if (about) await patchActive('about', { imageUrl: ABOUT, imageAlt: 'Our procurement team reviewing a contract' });
  inline = [];
  for (const [width, height] of [
    [1600, 900],
    [900, 1200],
  ] as const) {
    const res = await admin.post('/api/upload/image', {
      multipart: { image: { name: `inline-${width}-${id}.jpg`, mimeType: 'image/jpeg', buffer: await photoJpeg(width, height) } },
    });
    expect(res.ok(), await res.text()).toBe(true);
    inline.push({ ...((await res.json()) as { url: string }), width, height });
  }
  const created = await admin.post('/api/admin/insights', {
    data: {
      title: `Pictured insight ${id}`,
      slug,
      excerpt: 'An insight with a featured photo.',
      content: [
        'An article body long enough to be valid. '.repeat(4),
        `![Pallets staged at the loading dock](${inline[0]!.url})`,
        'More words between the two pictures, so the second sits further down the page. '.repeat(6),
        `![](${inline[1]!.url})`,
        'The end of the article.',
      ].join('\n\n'),
      authorName: 'Dana Reyes',
      authorTitle: 'Procurement Lead',
      featuredImage: FEATURED,
      featuredImageAlt: 'Contract awards by quarter',
      tags: [],
      isPublished: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  insightId = ((await created.json()) as { id: number }).id;
  // Published once the rebuild the writes asked for is live.
  await expect
    .poll(async () => (await admin.get(`/insights/${slug}`)).status() === 200 && (await (await admin.get('/')).text()).includes(HERO), {
      timeout: 90_000,
    })
    .toBe(true);
});

test.afterAll(async () => {
  if (insightId) await admin.delete(`/api/admin/insights/${insightId}`);
  await patchActive('header', { backgroundImage: header.backgroundImage, backgroundImageAlt: header.backgroundImageAlt ?? null });
  if (about) await patchActive('about', { imageUrl: about.imageUrl ?? null, imageAlt: about.imageAlt ?? null });
  await admin.dispose();
});

for (const width of [390, 1280]) {
  test(`[SITE][IMAGES] the home hero photo arrives late and moves nothing at ${width} px (CLS 0)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const served = await servePhotos(page);
    await page.addInitScript(() => {
      const w = window as unknown as { __cls: number; __shifts: string[] };
      w.__cls = 0;
      w.__shifts = [];
      new PerformanceObserver((list) => {
        type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node | null }[] };
        for (const e of list.getEntries() as Shift[]) {
          if (e.hadRecentInput) continue;
          w.__cls += e.value;
          const nodes = e.sources.map((s) => (s.node instanceof Element ? s.node.outerHTML.slice(0, 80) : String(s.node?.nodeName)));
          w.__shifts.push(`${e.startTime.toFixed(0)} ms: ${e.value} ${nodes.join(' | ')}`);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/');
    const hero = page.locator(`img[src="${HERO}"]`);
    await expect(hero).toHaveAttribute('fetchpriority', 'high');
    await expect(hero).toHaveAttribute('alt', '');
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 1920)).toBe(true);
    expect(served).toContain(HERO);
    // Two frames after the photo is decoded, so a shift it caused would have been recorded.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const { cls, shifts } = await page.evaluate(() => {
      const w = window as unknown as { __cls: number; __shifts: string[] };
      return { cls: w.__cls, shifts: w.__shifts };
    });
    expect(shifts).toEqual([]);
    expect(cls).toBe(0);
    // The photo fills the hero band behind the text.
    const [img, band] = await Promise.all([hero.boundingBox(), page.locator('main > section').first().boundingBox()]);
    expect(img).toEqual(band);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The owner's photo is the hero's picture: no drawing is laid over it.
    await expect(page.locator('main > section').first().locator('img[src^="/images/art/"]')).toHaveCount(0);
  });
}

test('[SITE][IMAGES] photos inside an article: sized from the upload (width, height, srcset), lazy, alt as written, and nothing moves as they arrive', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  const served = await servePhotos(page);
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!e.hadRecentInput) w.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`/insights/${slug}`);
  const images = page.locator('.article-body img');
  await expect(images).toHaveCount(2);
  for (const [i, alt] of ['Pallets staged at the loading dock', ''].entries()) {
    const img = images.nth(i);
    await expect(img).toHaveAttribute('src', inline[i]!.url);
    await expect(img).toHaveAttribute('alt', alt);
    await expect(img).toHaveAttribute('width', String(inline[i]!.width));
    await expect(img).toHaveAttribute('height', String(inline[i]!.height));
    await expect(img).toHaveAttribute('loading', 'lazy');
    expect(await img.getAttribute('srcset')).toMatch(/-\d+w\.webp \d+w/);
  }
  // Scrolled through as a reader does: each photo arrives late, and the text around it stays put.
  for (const i of [0, 1]) {
    await images.nth(i).scrollIntoViewIfNeeded();
    await expect.poll(() => images.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
  expect(served.some((path) => path.startsWith(inline[0]!.url.replace(/\.jpg$/, '')))).toBe(true);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0);
});

const imagePages = () => ['/', '/about', '/insights', `/insights/${slug}`];
for (const width of [390, 1280]) {
  test(`[SITE][IMAGES][A11Y] pages with photos have no axe violations at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await servePhotos(page);
    for (const path of imagePages()) {
      await page.goto(path);
      // Lazy images below the fold load too before the scan.
      await page.mouse.wheel(0, 10_000);
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page, { wcag: true, label: path })).toEqual([]);
    }
    await page.goto(`/insights/${slug}`);
    await expect(page.getByRole('img', { name: 'Contract awards by quarter' })).toBeVisible();
    if (about) {
      await page.goto('/about');
      await expect(page.getByRole('img', { name: 'Our procurement team reviewing a contract' })).toBeVisible();
    }
  });
}
