import MarkdownIt from 'markdown-it';
import { imageSrcset, type ImageMeta } from './images';

/*
 * An insight's text is Markdown (markdown-it, CommonMark with tables), rendered the same way on
 * the article page and in the back office's preview. Raw HTML is off: whatever an author types
 * between angle brackets is shown as text. Links keep to http(s), mail and site paths
 * (markdown-it refuses javascript:, vbscript:, file: and data: other than images). An image is shown
 * only when it is the site's own (an upload, or a path of this site), sized from the upload's
 * metadata so nothing moves as it loads; another site's image is a link to it. Headings start at
 * h2: the article's title is its page's h1.
 */

const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false });

/** What a render knows besides the text: the uploads' sizes and variants, by URL (SiteContent['images']). */
interface RenderEnv extends Record<string, unknown> {
  images?: Readonly<Record<string, ImageMeta>>;
}

/** An uploaded image's stored name (content-addressed: `images/<32 hex>.<ext>`), wherever it is stored. */
const UPLOAD_NAME = /\/images\/[0-9a-f]{32}\.[a-z]+$/;

/** Whether an article may show this image: an upload, or a path of this site (not `//host`). */
export function isOwnImage(src: string): boolean {
  return /^\/(?!\/)/.test(src) || UPLOAD_NAME.test(src);
}

/** The width an article's column gives an image (InsightArticle.astro: max-w-3xl less padding). */
const ARTICLE_IMAGE_SIZES = '(min-width: 768px) 720px, 100vw';

md.renderer.rules.image = (tokens, idx, options, env) => {
  const token = tokens[idx]!;
  const { images } = env as RenderEnv;
  const src = String(token.attrGet('src') ?? '');
  const alt = md.renderer.renderInlineAsText(token.children ?? [], options, env);
  const esc = md.utils.escapeHtml;
  // Another site's image is not fetched from the page: a link to it (an http one), else its words.
  if (!isOwnImage(src)) return /^https?:\/\//i.test(src) ? `<a href="${esc(src)}" rel="noopener">${esc(alt || src)}</a>` : esc(alt);
  const meta = images?.[src];
  const srcset = meta && imageSrcset(src, meta);
  const attrs = [
    `src="${esc(src)}"`,
    `alt="${esc(alt)}"`,
    ...(meta ? [`width="${meta.width}"`, `height="${meta.height}"`] : []),
    ...(srcset ? [`srcset="${esc(srcset)}"`, `sizes="${ARTICLE_IMAGE_SIZES}"`] : []),
    'loading="lazy"',
    'decoding="async"',
  ];
  return `<img ${attrs.join(' ')}>`;
};

/** The addresses of the images an article's text shows (for their sizes, and the editor's notes). */
export function articleImageUrls(source: string): string[] {
  if (!source.includes('![')) return [];
  const urls: string[] = [];
  for (const token of md.parse(withParagraphs(source), {})) {
    for (const child of token.children ?? []) if (child.type === 'image') urls.push(String(child.attrGet('src') ?? ''));
  }
  return urls.filter(Boolean);
}

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

/** The article's text as HTML (escaped, links checked, images sized from `images`): for `set:html` and the back office preview. */
export function articleHtml(source: string, images?: Readonly<Record<string, ImageMeta>>): string {
  return md.render(withParagraphs(source), { images } satisfies RenderEnv);
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
