import { describe, expect, it } from 'vitest';
import { articleHtml, articleImageUrls, articlePlainText, withParagraphs } from '#shared/markdown.ts';

describe('[SITE][MARKDOWN] an insight’s text as the article page shows it', () => {
  it('text written before Markdown reads as it did: each line a paragraph, blank lines make none', () => {
    expect(articleHtml('First line.\nSecond line.\n\n\nThird line.')).toBe('<p>First line.</p>\n<p>Second line.</p>\n<p>Third line.</p>\n');
    // Lists, quotes and tables keep their lines together.
    expect(withParagraphs('Intro.\n- one\n- two\nAfter.')).toBe('Intro.\n- one\n- two\nAfter.');
    expect(articleHtml('Intro:\n\n- one\n- two')).toBe('<p>Intro:</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n');
    expect(withParagraphs('```\nline 1\nline 2\n```')).toBe('```\nline 1\nline 2\n```');
  });

  it('headings start at h2 (the title is the h1); bold, italic, quotes, numbered lists and tables', () => {
    const html = articleHtml(
      '# Outlook\n## Details\n### Part\n**bold** and _italic_\n\n> A buyer said so.\n\n1. first\n2. second\n\n| Code | Title |\n|---|---|\n| 423430 | Computers |',
    );
    expect(html).toContain('<h2>Outlook</h2>');
    expect(html).toContain('<h2>Details</h2>');
    expect(html).toContain('<h3>Part</h3>');
    expect(html).toContain('<strong>bold</strong> and <em>italic</em>');
    expect(html).toContain('<blockquote>\n<p>A buyer said so.</p>\n</blockquote>');
    expect(html).toContain('<ol>\n<li>first</li>');
    expect(html).toContain('<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>');
    expect(html).toContain('<td>423430</td>');
    expect(articleHtml('###### deep')).toContain('<h6>deep</h6>');
  });

  it('links: other sites get rel="noopener", site paths stay plain, bare addresses become links, script addresses never', () => {
    expect(articleHtml('[SAM](https://sam.gov) and [about](/about)')).toBe(
      '<p><a href="https://sam.gov" rel="noopener">SAM</a> and <a href="/about">about</a></p>\n',
    );
    expect(articleHtml('See https://www.acquisition.gov today')).toContain('<a href="https://www.acquisition.gov" rel="noopener">');
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'vbscript:x',
      'data:text/html;base64,PHNjcmlwdD4=',
      'file:///etc/passwd',
    ])
      expect(articleHtml(`[x](${bad})`), bad).not.toContain('<a');
  });

  it('raw HTML is text, images are not loaded, nothing runs', () => {
    const html = articleHtml(
      '<script>alert(1)</script>\n<img src=x onerror=alert(2)>\n![pic](https://example.com/a.png)\n<a href="javascript:alert(3)">x</a>',
    );
    expect(html).not.toMatch(/<(script|img|iframe)/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<a href="javascript/i);
  });

  it('the plain text keeps the words without the marks, for feeds and summaries', () => {
    expect(articlePlainText('# Outlook\n**Bold** claim with a [link](https://sam.gov).\n- item `code`')).toBe(
      'Outlook\n\nBold claim with a link.\n\nitem code',
    );
  });

  it('an uploaded image is shown sized from its upload (width, height, srcset), lazy; without metadata, still the site’s own', () => {
    const url = '/uploads/images/0123456789abcdef0123456789abcdef.jpg';
    const images = { [url]: { width: 1600, height: 900, variantWidths: [480, 960] } };
    expect(articleHtml(`![Dock & pallets](${url})`, images)).toBe(
      `<p><img src="${url}" alt="Dock &amp; pallets" width="1600" height="900" ` +
        `srcset="/uploads/images/0123456789abcdef0123456789abcdef-480w.webp 480w, /uploads/images/0123456789abcdef0123456789abcdef-960w.webp 960w, ${url} 1600w" ` +
        `sizes="(min-width: 768px) 720px, 100vw" loading="lazy" decoding="async"></p>\n`,
    );
    expect(articleHtml('![](/images/art/sourcing.svg)')).toBe(
      '<p><img src="/images/art/sourcing.svg" alt="" loading="lazy" decoding="async"></p>\n',
    );
    // An upload kept in blob storage is the site's own too.
    expect(articleHtml('![x](https://store.example.com/images/0123456789abcdef0123456789abcdef.png)')).toContain(
      '<img src="https://store.example.com/',
    );
  });

  it('another site’s image is a link to it, never fetched; a data: or protocol-relative one is only its words', () => {
    expect(articleHtml('![Chart](https://example.com/chart.png)')).toBe(
      '<p><a href="https://example.com/chart.png" rel="noopener">Chart</a></p>\n',
    );
    expect(articleHtml('![Dot](data:image/png;base64,iVBORw0KGgo=)')).toBe('<p>Dot</p>\n');
    expect(articleHtml('![Far](//example.com/a.png)')).not.toContain('<img');
    expect(articleImageUrls('No images.')).toEqual([]);
    expect(articleImageUrls('![a](/uploads/images/a.png) and ![b](https://x.test/b.png)')).toEqual([
      '/uploads/images/a.png',
      'https://x.test/b.png',
    ]);
  });
});
