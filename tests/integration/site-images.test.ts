/**
 * Uploaded images on the public pages: content in a real database whose image fields point at
 * uploads (an `upload` row plus the original and its WebP variants on disk, as the upload endpoint
 * leaves them), snapshotted and built by the same release builder the server uses.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '#server/db/client.ts';
import { contentBlocks, features, headerContent, insights, services, uploads } from '#server/db/schema/index.ts';
import { snapshotContent, type SiteContent } from '#server/content/site-content.ts';
import { buildRelease, releaseClientDir } from '#server/publish/releases.ts';
import { ICONS } from '#components/site/icons.ts';
import { variantUrl } from '#shared/images.ts';
import { openTestDatabase } from './helpers/db';

const RELEASES = `.releases-images-test-${process.pid}`;
const DATA = path.resolve(`.data-images-test-${process.pid}`);
const SITE_URL = 'https://www.example.gov';

/** An uploaded raster image: the file and its variants under DATA_DIR/uploads/images, and its row. */
async function upload(h: DbHandle, name: string, ext: 'jpg' | 'png', width: number, height: number, variantWidths: number[]) {
  const key = `images/${name}.${ext}`;
  const url = `/uploads/${key}`;
  const dir = path.join(DATA, 'uploads', 'images');
  await fs.mkdir(dir, { recursive: true });
  const base = sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 140 } } });
  await (ext === 'jpg' ? base.jpeg() : base.png()).toFile(path.join(DATA, 'uploads', key));
  for (const w of variantWidths) {
    await sharp(path.join(DATA, 'uploads', key))
      .resize({ width: w })
      .webp()
      .toFile(path.join(DATA, 'uploads', variantUrl(key, w)));
  }
  await h.db.insert(uploads).values({
    kind: 'image',
    storage: 'local',
    key,
    url,
    originalName: `${name}.${ext}`,
    contentType: ext === 'jpg' ? 'image/jpeg' : 'image/png',
    width,
    height,
    variantWidths,
    completedAt: new Date(),
  });
  return url;
}

let h: DbHandle;
let snapshot: SiteContent;
let dir: string;
const urls: Record<string, string> = {};
const PASTED_MISSION = 'https://images.example.com/mission.jpg';
const page = (file: string) => fs.readFile(path.join(dir, file), 'utf8');
/** The `<img>` elements of a page whose src is `src`. */
const imgs = (html: string, src: string) => [...html.matchAll(/<img\b[^>]*>/g)].map((m) => m[0]).filter((t) => t.includes(`src="${src}"`));
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

beforeAll(async () => {
  process.env.RELEASES_DIR = RELEASES;
  process.env.DATA_DIR = DATA;
  process.env.SITE_URL = SITE_URL;
  h = await openTestDatabase();
  urls.hero = await upload(h, 'hero0a1b2c', 'jpg', 1920, 1000, [640, 960, 1280]);
  urls.logo = await upload(h, 'logo3d4e5f', 'png', 360, 120, [240]);
  urls.about = await upload(h, 'about6a7b8c', 'jpg', 800, 600, [400]);
  urls.service = await upload(h, 'service9d0e', 'png', 1000, 600, [500, 1000]);
  urls.insight = await upload(h, 'insight1f2a', 'jpg', 1200, 630, [600]);
  urls.unused = await upload(h, 'unused3b4c', 'jpg', 640, 480, [320]);

  await h.db.insert(headerContent).values({
    title: 'Images Headline',
    subtitle: 'Images subtitle',
    backgroundImage: urls.hero,
    backgroundImageAlt: 'Federal office towers at dusk',
    logoLight: urls.logo,
    logoDark: '/images/logo.svg',
    isActive: true,
  });
  await h.db.insert(contentBlocks).values([
    { section: 'about', title: 'About Images', content: 'Sub.\n\nBody.', imageUrl: urls.about, imageAlt: 'Our team reviewing a contract' },
    { section: 'about_mission', title: 'Mission Images', content: 'Mission.', imageUrl: PASTED_MISSION, imageAlt: '' },
  ]);
  await h.db.insert(services).values([
    { title: 'Plain Service', description: 'No image.', icon: 'cog', displayOrder: 0 },
    {
      title: 'Pictured Service',
      description: 'With image.',
      icon: 'database',
      imageSrc: urls.service,
      imageAlt: 'Servers in a rack',
      displayOrder: 1,
    },
  ]);
  await h.db.insert(features).values([
    { section: 'home', title: 'Database Card', description: 'Picked icon.', icon: 'database', displayOrder: 0 },
    { section: 'home', title: 'Odd Card', description: 'Unknown icon.', icon: 'no-such-icon', displayOrder: 1 },
  ]);
  await h.db.insert(insights).values({
    title: 'Pictured Insight',
    slug: 'pictured-insight',
    excerpt: 'With a featured image.',
    content: 'Body of the insight.',
    isPublished: true,
    publicationDate: new Date('2026-02-01T12:00:00Z'),
    authorName: 'Dana Reyes',
    authorTitle: 'Lead',
    featuredImage: urls.insight,
    featuredImageAlt: 'A chart of contract awards',
  });
  snapshot = await snapshotContent(h.db);
  dir = releaseClientDir((await buildRelease(snapshot)).id);
}, 240_000);

afterAll(async () => {
  await h?.close();
  await fs.rm(RELEASES, { recursive: true, force: true });
  await fs.rm(DATA, { recursive: true, force: true });
});

describe('[SITE][IMAGES] the content snapshot', () => {
  it('has the size and variants of every upload the pages use, and nothing for unused uploads or pasted URLs', () => {
    expect(Object.keys(snapshot.images).sort()).toEqual([urls.about, urls.hero, urls.insight, urls.logo, urls.service].sort());
    expect(snapshot.images[urls.hero!]).toEqual({ width: 1920, height: 1000, variantWidths: [640, 960, 1280] });
  });
});

describe('[SITE][IMAGES] rendered pages', () => {
  it('home: the header background is the hero photo, eager and fetched first, with its variants, size and alt text', async () => {
    const html = await page('index.html');
    const [hero, ...more] = imgs(html, urls.hero!);
    expect(more).toEqual([]);
    expect(attr(hero!, 'srcset')).toBe(
      '/uploads/images/hero0a1b2c-640w.webp 640w, /uploads/images/hero0a1b2c-960w.webp 960w, /uploads/images/hero0a1b2c-1280w.webp 1280w, /uploads/images/hero0a1b2c.jpg 1920w',
    );
    // An uploaded photo shows through on the right of wide screens: its full width.
    expect(attr(hero!, 'sizes')).toBe('100vw');
    expect([attr(hero!, 'width'), attr(hero!, 'height')]).toEqual(['1920', '1000']);
    expect(attr(hero!, 'alt')).toBe('Federal office towers at dusk');
    expect(attr(hero!, 'fetchpriority')).toBe('high');
    expect(attr(hero!, 'loading')).toBe('eager');
    // Only the hero is fetched ahead of everything else.
    expect(html.match(/fetchpriority="high"/g)).toHaveLength(1);
  });

  it('logos: an uploaded logoLight in the white header at its own aspect, decorative; the default logoDark draws our mark', async () => {
    const html = await page('index.html');
    const [header] = imgs(html, urls.logo!);
    expect(imgs(html, urls.logo!)).toHaveLength(1);
    expect([attr(header!, 'width'), attr(header!, 'height'), attr(header!, 'alt')]).toEqual(['120', '40', '']);
    expect(attr(header!, 'loading')).toBe('eager');
    expect(html.indexOf(header!)).toBeLessThan(html.indexOf('<main'));
    // logoDark still holds the default logo: the footer draws the site's own mark inline, no <img>.
    expect(imgs(html, '/images/logo.svg')).toEqual([]);
    const footer = html.slice(html.indexOf('<footer'));
    expect(footer).toMatch(/<a href="\/" aria-label="[^"]+, home page"[^>]*>\s*<svg[^>]*aria-hidden="true"/);
  });

  it('home feature cards draw the icon stored for them; an unknown name draws the rotating icon of its place', async () => {
    const html = await page('index.html');
    const card = (title: string) => new RegExp(`<li[^>]*>(?:(?!</li>)[\\s\\S])*${title}`).exec(html)?.[0] ?? '';
    expect(card('Database Card')).toContain(ICONS.database);
    expect(card('Odd Card')).toContain(ICONS.puzzle);
  });

  it('about: the uploaded image with its variants and alt text, lazy; a pasted mission image in the 800x600 box, decorative', async () => {
    const html = await page('about.html');
    const [about] = imgs(html, urls.about!);
    expect(attr(about!, 'srcset')).toBe('/uploads/images/about6a7b8c-400w.webp 400w, /uploads/images/about6a7b8c.jpg 800w');
    expect([attr(about!, 'width'), attr(about!, 'height')]).toEqual(['800', '600']);
    expect(attr(about!, 'alt')).toBe('Our team reviewing a contract');
    expect([attr(about!, 'loading'), attr(about!, 'decoding')]).toEqual(['lazy', 'async']);
    const [mission] = imgs(html, PASTED_MISSION);
    expect(mission).toContain('alt=""');
    expect(attr(mission!, 'srcset')).toBeUndefined();
    expect([attr(mission!, 'width'), attr(mission!, 'height'), attr(mission!, 'loading')]).toEqual(['800', '600', 'lazy']);
    expect(attr(mission!, 'class')).toContain('object-cover');
  });

  it('consulting: the service image with its variants, size and alt text, lazy below the first service', async () => {
    const html = await page('services/consulting.html');
    const [service] = imgs(html, urls.service!);
    expect(attr(service!, 'srcset')).toBe('/uploads/images/service9d0e-500w.webp 500w, /uploads/images/service9d0e-1000w.webp 1000w');
    expect([attr(service!, 'width'), attr(service!, 'height'), attr(service!, 'alt')]).toEqual(['1000', '600', 'Servers in a rack']);
    expect(attr(service!, 'loading')).toBe('lazy');
    expect(html).toContain(ICONS.database);
  });

  it('insight: the featured image on the page (its hero) and on its card, og:image absolute, a large share card', async () => {
    const html = await page('insights/pictured-insight.html');
    const [featured] = imgs(html, urls.insight!);
    expect(attr(featured!, 'srcset')).toBe('/uploads/images/insight1f2a-600w.webp 600w, /uploads/images/insight1f2a.jpg 1200w');
    expect([attr(featured!, 'width'), attr(featured!, 'height'), attr(featured!, 'alt')]).toEqual([
      '1200',
      '630',
      'A chart of contract awards',
    ]);
    expect(attr(featured!, 'loading')).not.toBe('lazy');
    expect(html).toContain(`<meta property="og:image" content="${SITE_URL}${urls.insight}">`);
    expect(html).toContain('<meta property="og:image:alt" content="A chart of contract awards">');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    const [card] = imgs(await page('insights.html'), urls.insight!);
    expect(attr(card!, 'srcset')).toContain('insight1f2a-600w.webp 600w');
    expect(attr(card!, 'alt')).toBe('A chart of contract awards');
  });

  it('pages without a share image keep the small card and no og:image', async () => {
    const html = await page('about.html');
    expect(html).not.toContain('og:image');
    expect(html).toContain('<meta name="twitter:card" content="summary">');
  });

  it('below the fold every image is lazy; only heroes are not', async () => {
    for (const [file, eager] of [
      ['index.html', [urls.hero, urls.logo]],
      ['about.html', [urls.logo]],
    ] as const) {
      const tags = [...(await page(file)).matchAll(/<img\b[^>]*>/g)].map((m) => m[0]);
      for (const tag of tags) expect(attr(tag, 'loading'), tag).toBe(eager.includes(attr(tag, 'src')!) ? 'eager' : 'lazy');
    }
  });

  it('every srcset candidate is a file the upload left on disk', async () => {
    let candidates = 0;
    for (const file of ['index.html', 'about.html', 'services/consulting.html', 'insights/pictured-insight.html', 'insights.html']) {
      for (const m of (await page(file)).matchAll(/srcset="([^"]+)"/g)) {
        for (const c of m[1]!.split(', ')) {
          const url = c.split(' ')[0]!;
          expect(url.startsWith('/uploads/')).toBe(true);
          await expect(fs.stat(path.join(DATA, url))).resolves.toBeTruthy();
          candidates++;
        }
      }
    }
    expect(candidates).toBeGreaterThan(10);
  });
});
