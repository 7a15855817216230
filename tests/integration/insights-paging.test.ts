/**
 * /insights as the section grows: the newest article featured and 12 cards on the first page,
 * 12 a page after it on /insights/page/2 …, each page with its own canonical address, rel
 * prev/next and a keyboard-usable page list, all in the sitemap; the RSS feed carries the latest 50.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteContent } from '#server/content/site-content.ts';
import { buildRelease, releaseClientDir } from '#server/publish/releases.ts';
import { at, content } from './helpers/content-with-data';
import { renderPage } from '../helpers/bundle';

const RELEASES = `.releases-test-${process.pid}`;
const SITE = 'https://www.example.gov';
/** 61 published articles: one featured and 60 cards, so five pages of 12. */
const COUNT = 61;

const many = {
  ...content,
  insights: Array.from({ length: COUNT }, (_, n) => ({
    ...content.insights[0]!,
    id: n + 1,
    title: `Article number ${n + 1}`,
    slug: `article-${n + 1}`,
    // Newest first, as the snapshot orders them.
    publicationDate: at(`2026-0${1 + Math.floor(n / 28)}-${String(28 - (n % 28)).padStart(2, '0')}`),
  })),
} as SiteContent;

let dir: string;
const read = (file: string) => fs.readFile(path.join(dir, file), 'utf8');
const cards = (html: string) => [...html.matchAll(/<h3[^>]*>\s*(?:<a[^>]*>)?\s*(Article number \d+)/g)].map((m) => m[1]);

beforeAll(async () => {
  process.env.RELEASES_DIR = RELEASES;
  process.env.SITE_URL = SITE;
  dir = releaseClientDir((await buildRelease(many)).id);
}, 180_000);
afterAll(async () => {
  await fs.rm(RELEASES, { recursive: true, force: true });
});

describe('[SITE][INSIGHTS][PAGES] /insights in pages of 12', () => {
  it('the first page: the newest featured, then the next 12; a next link and no previous', async () => {
    const html = await read('insights.html');
    expect(html).toContain('Featured');
    expect(html).toMatch(/Article number 1\b/);
    const listed = cards(html);
    expect(listed).toContain('Article number 2');
    expect(listed).toContain('Article number 13');
    expect(listed).not.toContain('Article number 14');
    expect(html).toContain(`<link rel="canonical" href="${SITE}/insights">`);
    expect(html).toContain('<link rel="next" href="/insights/page/2">');
    expect(html).not.toContain('rel="prev"');
    expect(html).toMatch(/<nav aria-label="Insights pages"/);
    expect(html).toMatch(/href="\/insights" aria-current="page"/);
  });

  it('page 2 to 5: 12, 12, 12 and 12 cards, each its own canonical, title and prev/next', async () => {
    for (let page = 2; page <= 5; page++) {
      const html = await read(`insights/page/${page}.html`);
      const listed = cards(html);
      expect(listed, `page ${page}`).toHaveLength(12);
      expect(listed[0]).toBe(`Article number ${2 + (page - 1) * 12}`);
      expect(html).not.toContain('Featured');
      expect(html).toContain(`<link rel="canonical" href="${SITE}/insights/page/${page}">`);
      expect(html).toContain(`<title>Economics &amp; Procurement Insights, page ${page} of 5`);
      expect(html).toContain(`<link rel="prev" href="${page === 2 ? '/insights' : `/insights/page/${page - 1}`}">`);
      if (page < 5) expect(html).toContain(`<link rel="next" href="/insights/page/${page + 1}">`);
      else expect(html).not.toContain('rel="next"');
      expect(html).toMatch(new RegExp(`href="/insights/page/${page}" aria-current="page"`));
    }
    await expect(fs.stat(path.join(dir, 'insights/page/6.html'))).rejects.toThrow();
  });

  it('the page list shows the first, the last and two either side of the current page', async () => {
    const nav = (await read('insights/page/5.html')).match(/<nav aria-label="Insights pages"[\s\S]*?<\/nav>/)![0];
    const linked = [...nav.matchAll(/href="\/insights(?:\/page\/(\d+))?"[^>]*>\s*<span class="sr-only">Page <\/span>/g)].map((m) =>
      Number(m[1] ?? 1),
    );
    expect(linked).toEqual([1, 3, 4, 5]);
    expect(nav).toContain('…');
  });

  it('at 3,000 articles /insights is still under 80 KB', async () => {
    const big = {
      ...many,
      insights: Array.from({ length: 3000 }, (_, n) => ({ ...many.insights[0]!, id: n + 1, slug: `article-${n + 1}` })),
    };
    for (const path of ['/insights', '/insights/page/100']) {
      const res = await renderPage(path, SITE, big as SiteContent);
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength, path).toBeLessThan(80 * 1024);
    }
  });

  it('every page of the list is in the sitemap; the feed carries the latest 50', async () => {
    const sitemap = await read('sitemap.xml');
    for (let page = 2; page <= 5; page++) expect(sitemap).toContain(`<loc>${SITE}/insights/page/${page}</loc>`);
    expect(sitemap).not.toContain('/insights/page/1<');
    const rss = await read('rss.xml');
    expect(rss.match(/<item>/g)).toHaveLength(50);
    expect(rss).toContain('Article number 1<');
    expect(rss).toContain('Article number 50<');
    expect(rss).not.toContain('Article number 51<');
  });

  it('a site with few articles has one page and no page list', async () => {
    const info = await buildRelease(content as SiteContent);
    const html = await fs.readFile(path.join(releaseClientDir(info.id), 'insights.html'), 'utf8');
    expect(html).not.toContain('Insights pages');
    expect(html).not.toContain('rel="next"');
    await expect(fs.stat(path.join(releaseClientDir(info.id), 'insights/page/2.html'))).rejects.toThrow();
  });
});
