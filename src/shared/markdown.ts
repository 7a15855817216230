import MarkdownIt from 'markdown-it';

/*
 * An insight's text is Markdown (markdown-it, CommonMark with tables), rendered the same way on
 * the article page and in the back office's preview. Raw HTML is off: whatever an author types
 * between angle brackets is shown as text. Links keep to http(s), mail and site paths
 * (markdown-it refuses javascript:, vbscript:, file: and data: other than images); images are off
 * (an article's picture is its featured image, which the site sizes). Headings start at h2: the
 * article's title is its page's h1.
 */

const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
md.disable(['image']);

/** `#` and `##` are both section headings (h2: the page's h1 is the title), `###` an h3 and so on. */
md.core.ruler.push('article_headings', (state) => {
  for (const token of state.tokens) {
    if (token.type === 'heading_open' || token.type === 'heading_close') {
      token.tag = `h${Math.max(2, Number(token.tag.slice(1)))}`;
    }
  }
});

/** A link to another site opens as a plain link, without handing it this page (`rel="noopener"`). */
md.core.ruler.push('external_links', (state) => {
  for (const block of state.tokens) {
    for (const token of block.children ?? []) {
      if (token.type === 'link_open' && /^https?:\/\//i.test(String(token.attrGet('href') ?? ''))) token.attrSet('rel', 'noopener');
    }
  }
});

/** A wide table scrolls inside the column instead of widening the page; it can be scrolled by keyboard. */
md.renderer.rules.table_open = () => '<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>\n';
md.renderer.rules.table_close = () => '</table></div>\n';

/** A line that starts a Markdown block of its own (list item, quote, heading, table row, fence, indented code). */
const BLOCK_LINE = /^(\s{4}|\t|\s*([-*+]\s|\d+[.)]\s|>|#{1,6}\s|\||```|~~~))/;

/**
 * Text written before Markdown put each paragraph on its own line, with no blank line between:
 * consecutive plain lines become paragraphs of their own, as they were shown before, while lists,
 * quotes, tables and code keep their lines together.
 */
export function withParagraphs(source: string): string {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let fenced = false;
  lines.forEach((line, i) => {
    out.push(line);
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const next = lines[i + 1];
    if (fenced || next === undefined || !line.trim() || !next.trim()) return;
    if (!BLOCK_LINE.test(line) && !BLOCK_LINE.test(next)) out.push('');
  });
  return out.join('\n');
}

/** The article's text as HTML (escaped, links checked): for `set:html` and the back office preview. */
export function articleHtml(source: string): string {
  return md.render(withParagraphs(source));
}

/** The article's words without the Markdown: for feeds, structured data and counts. */
export function articlePlainText(source: string): string {
  const words: string[] = [];
  for (const token of md.parse(withParagraphs(source), {})) {
    if (token.type !== 'inline' && token.type !== 'code_block' && token.type !== 'fence') continue;
    const text =
      token.type === 'inline'
        ? (token.children ?? [])
            .map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : c.type === 'softbreak' ? ' ' : ''))
            .join('')
        : token.content;
    if (text.trim()) words.push(text.trim());
  }
  return words.join('\n\n');
}
