import { describe, expect, it } from 'vitest';
import { IMAGE_BOXES, imageSrcset, imageTypeOfUrl, logoImage, siteImage, variantUrl } from '#shared/images.ts';
import { processImage } from '#server/services/image-files.ts';

const HERO = '/uploads/images/3f2a9c.jpg';
const heroMeta = { width: 1920, height: 1000, variantWidths: [640, 1280, 960] };

describe('[IMAGES] variant URLs', () => {
  it('replaces the extension with -<w>w.webp, on local and Blob URLs alike', () => {
    expect(variantUrl(HERO, 640)).toBe('/uploads/images/3f2a9c-640w.webp');
    expect(variantUrl('https://abc.public.blob.vercel-storage.com/images/a1.b2.png', 960)).toBe(
      'https://abc.public.blob.vercel-storage.com/images/a1.b2-960w.webp',
    );
    expect(variantUrl('/uploads/images/x.jpeg?v=2#top', 480)).toBe('/uploads/images/x-480w.webp?v=2#top');
  });
  it('a URL without an extension gets the suffix appended (a dot in a folder name is not an extension)', () => {
    expect(variantUrl('/uploads/v1.2/photo', 320)).toBe('/uploads/v1.2/photo-320w.webp');
  });
});

describe('[IMAGES] srcset', () => {
  it('lists the variants narrowest first, then the original at its own width', () => {
    expect(imageSrcset(HERO, heroMeta)).toBe(
      '/uploads/images/3f2a9c-640w.webp 640w, /uploads/images/3f2a9c-960w.webp 960w, /uploads/images/3f2a9c-1280w.webp 1280w, /uploads/images/3f2a9c.jpg 1920w',
    );
  });
  it('a variant as wide as the original stands in for it (WebP, smaller); none wider than the original, no duplicates', () => {
    expect(imageSrcset('/u/a.png', { width: 800, height: 600, variantWidths: [800, 400, 400, 1600] })).toBe(
      '/u/a-400w.webp 400w, /u/a-800w.webp 800w',
    );
  });
  it('no variants (SVG, GIF): no srcset', () => {
    expect(imageSrcset('/u/a.svg', { width: 100, height: 100, variantWidths: [] })).toBeUndefined();
  });
});

describe('[IMAGES] an image field as the pages draw it', () => {
  it('an upload: its own size, its srcset, the alt text trimmed', () => {
    expect(siteImage(HERO, '  Office towers at dusk ', { [HERO]: heroMeta }, IMAGE_BOXES.headerBackground)).toEqual({
      src: HERO,
      alt: 'Office towers at dusk',
      width: 1920,
      height: 1000,
      srcset: imageSrcset(HERO, heroMeta),
    });
    const square = siteImage('/u/s.jpg', 'x', { '/u/s.jpg': { width: 500, height: 500, variantWidths: [] } }, IMAGE_BOXES.service);
    expect(square).toEqual({ src: '/u/s.jpg', alt: 'x', width: 500, height: 500 });
  });
  it('no upload row (pasted, seeded or default URL): the field box, no srcset, decorative without alt', () => {
    const pasted = 'https://images.example.com/photo.jpg';
    for (const [box, size] of [
      ['headerBackground', [1920, 1000]],
      ['service', [1000, 600]],
      ['insightFeatured', [1200, 630]],
      ['about', [800, 600]],
    ] as const) {
      expect(siteImage(pasted, null, { [HERO]: heroMeta }, IMAGE_BOXES[box])).toEqual({
        src: pasted,
        alt: '',
        width: size[0],
        height: size[1],
      });
    }
    expect(siteImage(pasted, '   ', undefined, IMAGE_BOXES.service).alt).toBe('');
  });
  it('an upload row without a usable size is treated as unknown', () => {
    expect(siteImage('/u/b.jpg', '', { '/u/b.jpg': { width: 0, height: 0, variantWidths: [400] } }, IMAGE_BOXES.about)).toEqual({
      src: '/u/b.jpg',
      alt: '',
      width: 800,
      height: 600,
    });
  });
  it('a logo keeps its aspect at 40 px high; unknown logos are square', () => {
    const wide = { '/u/logo.png': { width: 600, height: 200, variantWidths: [240] } };
    expect(logoImage('/u/logo.png', wide)).toMatchObject({
      width: 120,
      height: 40,
      alt: '',
      srcset: '/u/logo-240w.webp 240w, /u/logo.png 600w',
    });
    expect(logoImage('/images/logo.svg', wide)).toEqual({ src: '/images/logo.svg', alt: '', width: 40, height: 40 });
  });
});

describe('[IMAGES] the type of an uploaded image from its URL', () => {
  it('is the type the server stored it as, for each extension it names files with, and nothing for any other URL', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const stored = await processImage(png);
    expect(imageTypeOfUrl(`/uploads/abc.${stored.ext}`)).toBe(stored.contentType);
    expect(imageTypeOfUrl('/uploads/a.jpg')).toBe('image/jpeg');
    expect(imageTypeOfUrl('/uploads/a.svg')).toBe('image/svg+xml');
    expect(imageTypeOfUrl('/uploads/a.webp')).toBe('image/webp');
    expect(imageTypeOfUrl('/uploads/a.gif')).toBe('image/gif');
    expect(imageTypeOfUrl('/uploads/a.jpeg')).toBe('');
    expect(imageTypeOfUrl('https://example.com/photo')).toBe('');
    expect(imageTypeOfUrl('/uploads/a.constructor')).toBe('');
  });
});
