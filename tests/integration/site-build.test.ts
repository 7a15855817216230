/**
 * The public pages built from a content snapshot that has what only administrators can create
 * (published insights, documents, services, cards), through the same release builder the
 * server uses. The e2e suite covers the empty/fallback states on the live server.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteContent } from '#server/content/site-content.ts';
import { buildRelease, releaseClientDir } from '#server/publish/releases.ts';
import { expectedFiles } from '#server/content/routes.ts';
import { inlineScriptHashes, inlineScripts } from '#server/security-headers.ts';
import { scriptElements } from '../helpers/html-scripts';
import { at, breakout, content } from './helpers/content-with-data';

const RELEASES = `.releases-test-${process.pid}`;

let dir: string;
const page = (file: string) => fs.readFile(path.join(dir, file), 'utf8');
const text = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

beforeAll(async () => {
  process.env.RELEASES_DIR = RELEASES;
  process.env.SITE_URL = 'https://www.example.gov';
  const info = await buildRelease(content);
  dir = releaseClientDir(info.id);
}, 180_000);
afterAll(async () => {
  await fs.rm(RELEASES, { recursive: true, force: true });
});

describe('[SITE][BUILD] a release built from content with data', () => {
  it('contains every expected file, one page per published insight', async () => {
    const files = expectedFiles(content);
    expect(files).toEqual(
      expect.arrayContaining(['/insights/newest-market-outlook.html', '/insights/short-one.html', '/sitemap.xml', '/rss.xml']),
    );
    for (const f of files) expect((await fs.stat(path.join(dir, f))).size).toBeGreaterThan(0);
  });

  it('insights list: newest first as Featured, category labels, list read time, excerpt fallback, fixed link to a published slug', async () => {
    const t = text(await page('insights.html'));
    expect(t).toMatch(/Featured Market Analysis Newest Market Outlook/);
    expect(t).toContain('Case Studies');
    expect(t).toContain('Expert Advice');
    // 1000 chars → 5 min; 100 chars → max(3, 1) = 3 min; excerpt '' → first 150 chars.
    expect(t).toMatch(/Reducing Costs c{150} .*5 min read/);
    expect(t).toMatch(/Short One .*3 min read/);
    expect(await page('insights.html')).toContain('href="/insights/reducing-procurement-costs"');
  });

  it('insight detail: title, stored read time, author, paragraphs without blank lines, escaped markup, JSON-LD', async () => {
    const html = await page('insights/newest-market-outlook.html');
    expect(html.match(/<h1/g)).toHaveLength(1);
    const t = text(html);
    expect(t).toContain('Newest Market Outlook');
    expect(t).toContain('12 min read');
    expect(t).toMatch(/Dana Reyes\s*, Procurement Lead/);
    expect(t).toContain('February 10, 2026');
    expect(html).toContain('Third &lt;b&gt;paragraph&lt;/b&gt;.');
    // Each line its own paragraph, as before the text was Markdown; blank lines make none.
    const body = html.match(/<div class="prose-site article-body">([\s\S]*?)<\/div>/)![1]!;
    expect((body.match(/<p>/g) ?? []).length).toBe(4);
    expect(html).toContain('<link rel="canonical" href="https://www.example.gov/insights/newest-market-outlook">');
    const ld = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
    expect(ld.find((d) => d['@type'] === 'Article')).toMatchObject({
      headline: 'Newest Market Outlook',
      datePublished: at('2026-02-10'),
      author: { name: 'Dana Reyes' },
    });
    expect(ld.find((d) => d['@type'] === 'BreadcrumbList').itemListElement).toHaveLength(3);
  });

  it('detail read time without a stored value is ceil(length / 200)', async () => {
    expect(text(await page('insights/short-one.html'))).toContain('5 min read');
  });

  it('sitemap and RSS list every published insight with absolute URLs', async () => {
    const sitemap = await page('sitemap.xml');
    for (const slug of ['newest-market-outlook', 'reducing-procurement-costs', 'short-one']) {
      expect(sitemap).toContain(`<loc>https://www.example.gov/insights/${slug}</loc>`);
    }
    expect(sitemap).toContain('<loc>https://www.example.gov/services/partners</loc>');
    const rss = await page('rss.xml');
    expect(rss.match(/<item>/g)).toHaveLength(4);
    expect(rss).toContain('<guid isPermaLink="true">https://www.example.gov/insights/short-one</guid>');
    expect(await page('robots.txt')).toContain('Sitemap: https://www.example.gov/sitemap.xml');
  });

  it('capabilities: one card per active document with size in MB, View PDF in a new tab and a named download', async () => {
    const html = await page('capabilities.html');
    expect(html.match(/data-testid="document-card"/g)).toHaveLength(2);
    expect(text(html)).toContain('1.5 MB');
    expect(text(html)).toContain('Capability Statement'); // category label
    expect(html).toMatch(/href="\/uploads\/cap.pdf" target="_blank" rel="noopener"[^>]*>[\s\S]*?View PDF/);
    expect(html).toContain('download="capability-2026.pdf"');
    expect(html).not.toContain('No Documents Available');
    expect(html).not.toContain('old-cap.pdf');
  });

  it('document buttons open the capability statement and the onboarding kit when they exist', async () => {
    expect(await page('services/federal.html')).toMatch(/href="\/uploads\/cap.pdf" target="_blank"[^>]*data-document="capability"/);
    const partners = await page('services/partners.html');
    expect(partners).toMatch(/href="\/uploads\/oem.pdf" target="_blank"[^>]*data-document="onboarding"/);
    expect(partners).not.toContain('data-missing');
    for (const file of ['services/federal.html', 'services/partners.html']) expect(await page(file)).not.toContain('old-cap.pdf');
  });

  it('consulting: the active services in their order, the illustration of its icon when no image was uploaded', async () => {
    const html = await page('services/consulting.html');
    expect(text(html)).toMatch(/Sourcing Service.*Audit Service/);
    expect(html).not.toContain('src="/images/service-default.svg"');
    // 'users' is a sourcing icon: the sourcing illustration, sized up front and decorative.
    expect(html).toMatch(/<img src="\/images\/art\/sourcing\.svg" width="1000" height="600"[^>]*alt=""/);
    expect(html).toContain('src="/uploads/audit.png"');
    expect(text(html)).not.toContain('Procurement Strategy Development');
  });

  it('home: an invisible header CTA gives Request Quick Quote; feature cards from content', async () => {
    const t = text(await page('index.html'));
    expect(t).toContain('Request Quick Quote');
    expect(t).not.toContain('Hidden CTA');
    expect(t).toContain('Second Card');
    expect(t).not.toContain('Expert Leadership');
  });

  it('about: the title, the subtitle before the first blank line, the body after, markup escaped', async () => {
    const html = await page('about.html');
    expect(text(html)).toContain('About Sterling');
    expect(html).toContain('We &lt;script&gt;alert(1)&lt;/script&gt; supply.');
    expect(text(html)).toMatch(/Body paragraph one\. Body paragraph two\./);
    // No about cards in the content: the three defaults.
    expect(text(html)).toMatch(/Certified Experts.*Industry Expertise.*Results-Driven/);
  });
});

describe('[SECURITY][XSS] stored text in inline JSON and the CSP', () => {
  const jsonLd = (html: string) =>
    [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));

  it('an insight whose title, excerpt, author and tag try to end the JSON-LD block stays data', async () => {
    for (const file of ['insights/script-breakout.html', 'insights.html']) {
      const html = await page(file);
      const scripts = scriptElements(html);
      // Parsed as a browser parses it: no executable script element carries the stored text.
      expect(scripts.filter((s) => s.type !== 'application/ld+json' && s.text.includes('alert('))).toEqual([]);
      for (const s of scripts.filter((s) => s.type === 'application/ld+json')) expect(s.text).not.toMatch(/[<>\u2028]/);
    }
    const html = await page('insights/script-breakout.html');
    const article = jsonLd(html).find((d) => d['@type'] === 'Article');
    expect(article).toMatchObject({
      headline: breakout('title').slice(0, 110),
      author: { name: breakout('author') },
      keywords: breakout('tag'),
    });
    expect(article.description).toContain(breakout('excerpt'));
  });

  it('every inline script a browser would run is one the build emits and is hashed; the CSP hashes nothing else', async () => {
    let scripts = 0;
    for (const f of expectedFiles(content).filter((f) => f.endsWith('.html'))) {
      const html = await page(f.replace(/^\//, ''));
      const inline = scriptElements(html).filter((s) => !s.src && s.type !== 'application/ld+json');
      const trusted = new Set(inlineScriptHashes(html));
      const ours = new Set(
        inlineScripts(html)
          .filter((s) => s.trusted)
          .map((s) => s.text),
      );
      expect(inline.filter((s) => !ours.has(s.text)).map((s) => `${f}: ${s.text.slice(0, 60)}`)).toEqual([]);
      expect(trusted.size).toBe(new Set(inline.map((s) => s.text)).size);
      scripts += inline.length;
    }
    // The header script on every page, at least.
    expect(scripts).toBeGreaterThan(10);
  });
});

describe('[PUBLISH][RENDER] releases rendered by the server bundle', () => {
  it('renders each release from its own content, with the same assets, in this process and in a fraction of a second', async () => {
    const withAbout = (title: string) =>
      ({ ...content, blocks: { ...content.blocks, about: { ...content.blocks.about!, title } } }) as SiteContent;
    const first = await buildRelease(withAbout('First About Title'));
    const second = await buildRelease(withAbout('Second About Title'), { previous: first });
    const about = (id: string) => fs.readFile(path.join(releaseClientDir(id), 'about.html'), 'utf8');
    expect(text(await about(first.id))).toContain('First About Title');
    expect(text(await about(second.id))).toContain('Second About Title');
    expect(text(await about(second.id))).not.toContain('First About Title');
    // The same code: the same hashed assets, those of the server bundle's own client files.
    const assets = async (dir: string) =>
      (await fs.readdir(path.join(dir, '_astro'))).filter((f) => !f.endsWith('.br') && !f.endsWith('.gz')).sort();
    expect(await assets(releaseClientDir(second.id))).toEqual(await assets(releaseClientDir(first.id)));
    expect(await assets(releaseClientDir(second.id))).toEqual(await assets('dist/client'));
    for (const f of expectedFiles(content)) expect((await fs.stat(path.join(releaseClientDir(second.id), f))).size).toBeGreaterThan(0);
    // The shells name the business from the content too.
    expect(await fs.readFile(path.join(releaseClientDir(second.id), 'admin.html'), 'utf8')).toContain('<title>Back Office |');
    // Rendering 17 pages in this process, not a bundling build (which takes 8 s and more here).
    expect(second.astroMs!).toBeLessThan(5_000);
  }, 240_000);
});
