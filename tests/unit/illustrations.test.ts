import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICE_ICONS } from '#shared/constants.ts';
import { FALLBACK_SERVICES } from '#shared/fallbacks.ts';
import { ILLUSTRATIONS, PAGE_ART, illustrationImage, serviceIllustration } from '#shared/illustrations.ts';

describe('illustrations', () => {
  it('every illustration is a small SVG file in public/ of the size the pages reserve for it', () => {
    for (const src of Object.values(ILLUSTRATIONS)) {
      const svg = fs.readFileSync(`public${src}`, 'utf8');
      expect(svg, src).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1000" height="600" viewBox="0 0 1000 600">/);
      expect(svg.length, src).toBeLessThan(4096);
      // Nothing that could run, load or pull a font from elsewhere.
      expect(svg, src).not.toMatch(/<script|<text|href=|url\(|\son[a-z]+=/i);
    }
  });

  it('decorative, in the service image box', () => {
    expect(illustrationImage('federal')).toEqual({ src: '/images/art/federal.svg', alt: '', width: 1000, height: 600 });
  });

  it('every service icon option has a picture; the three starting services get three different ones', () => {
    for (const icon of SERVICE_ICONS) expect(Object.keys(ILLUSTRATIONS)).toContain(serviceIllustration(icon, 0));
    expect(new Set(FALLBACK_SERVICES.map((s, i) => serviceIllustration(s.icon, i))).size).toBe(3);
  });

  it('an icon that is not an option gets the picture of its place, so neighbours differ', () => {
    const picks = [0, 1, 2].map((i) => serviceIllustration('fas fa-rocket', i));
    expect(new Set(picks).size).toBe(3);
    expect(serviceIllustration(null, 3)).toBe(picks[0]);
  });
});

describe('page heroes', () => {
  it('each page has a picture of its own, none of them one the service cards fall back to', () => {
    const pages = Object.values(PAGE_ART);
    expect(new Set(pages).size).toBe(pages.length);
    const servicePictures = new Set([
      ...SERVICE_ICONS.map((icon) => serviceIllustration(icon, 0)),
      ...[0, 1, 2].map((i) => serviceIllustration(null, i)),
    ]);
    for (const art of pages) expect(servicePictures.has(art), art).toBe(false);
  });
});
