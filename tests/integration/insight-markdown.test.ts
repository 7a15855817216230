/**
 * An insight's Markdown on its page: headings, emphasis, lists, links, quotes and tables as HTML
 * the page styles, raw HTML as text; the card and the feed fall back to its words, never its marks.
 */
import { describe, expect, it } from 'vitest';
import type { SiteContent } from '#server/content/site-content.ts';
import { content } from './helpers/content-with-data';
import { renderPage } from '../helpers/bundle';

const SITE = 'https://www.example.gov';
const TEXT = [
  'A short lead paragraph.',
  'A second line, its own paragraph.',
  '## What buyers check',
  '- **Active SAM registration**',
  '- _TAA_ compliance, see [the FAR](https://www.acquisition.gov/far) or [our profile](/services/federal)',
  '> Quotes stand apart.',
  '',
  '| NAICS | Title |',
  '|---|---|',
  '| 423430 | Computer equipment |',
  '<script>alert(1)</script>',
].join('\n');

const article = { ...content.insights[0]!, slug: 'markdown-article', title: 'Markdown Article', content: TEXT };
const site = { ...content, insights: [article, ...content.insights.slice(1)] } as SiteContent;

describe('[SITE][MARKDOWN] an article written in Markdown', () => {
  it('its page shows the structure, links other sites with rel="noopener", and shows raw HTML as text', async () => {
    const res = await renderPage('/insights/markdown-article', SITE, site);
    expect(res.status).toBe(200);
    const html = await res.text();
    const body = html.match(/<div class="prose-site article-body">([\s\S]*?)<\/div>\s*(?:<ul class="mt-8|<aside)/)![1]!;
    expect(body).toContain('<p>A short lead paragraph.</p>\n<p>A second line, its own paragraph.</p>');
    expect(body).toContain('<h2>What buyers check</h2>');
    expect(body).toContain('<li><strong>Active SAM registration</strong></li>');
    expect(body).toContain('<a href="https://www.acquisition.gov/far" rel="noopener">the FAR</a>');
    expect(body).toContain('<a href="/services/federal">our profile</a>');
    expect(body).toContain('<blockquote>');
    expect(body).toContain('<td>423430</td>');
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html.match(/<h1/g)).toHaveLength(1);
  });

  it('without a summary, the card and the feed take the words, not the marks', async () => {
    const bare = { ...site, insights: [{ ...article, excerpt: '' }, ...site.insights.slice(1)] } as SiteContent;
    const list = await (await renderPage('/insights', SITE, bare)).text();
    expect(list).toContain('A short lead paragraph.');
    expect(list).not.toContain('## What buyers check');
    const rss = await (await renderPage('/rss.xml', SITE, bare)).text();
    const item = rss.slice(rss.indexOf('<title>Markdown Article</title>'));
    expect(item.slice(0, item.indexOf('</item>'))).not.toMatch(/\*\*|##|\]\(/);
  });
});
