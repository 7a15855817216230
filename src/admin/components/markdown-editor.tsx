import { useMemo, useRef, type ComponentProps } from 'react';
import { flushSync } from 'react-dom';
import { Textarea } from '#components/ui/textarea.tsx';
import { articleHtml } from '#shared/markdown.ts';

/*
 * An insight's text: Markdown in a plain textarea, with a small toolbar that writes the marks for
 * the owner (heading, bold, italic, list, link, quote) and a live preview made by the same
 * renderer as the article page (src/shared/markdown.ts: raw HTML off, so the preview is as safe as
 * the page).
 */

type Edit = (text: string, start: number, end: number) => { text: string; start: number; end: number };

/** Wraps the selection (or a placeholder word, selected) in `mark`. */
const wrap =
  (mark: string, placeholder: string): Edit =>
  (text, start, end) => {
    const inner = text.slice(start, end) || placeholder;
    return {
      text: text.slice(0, start) + mark + inner + mark + text.slice(end),
      start: start + mark.length,
      end: start + mark.length + inner.length,
    };
  };

/** Starts every line the selection touches with `prefix`. */
const prefixLines =
  (prefix: string): Edit =>
  (text, start, end) => {
    const from = text.lastIndexOf('\n', start - 1) + 1;
    const block = text.slice(from, end);
    const lines = block.split('\n').map((l) => (l.startsWith(prefix) ? l : prefix + l));
    const next = lines.join('\n');
    return { text: text.slice(0, from) + next + text.slice(end), start: from, end: from + next.length };
  };

/** The selection as a link's text, the address selected to be typed over. */
const link: Edit = (text, start, end) => {
  const label = text.slice(start, end) || 'link text';
  const url = 'https://';
  const inserted = `[${label}](${url})`;
  const urlStart = start + label.length + 3;
  return { text: text.slice(0, start) + inserted + text.slice(end), start: urlStart, end: urlStart + url.length };
};

const TOOLS: { label: string; text: string; edit: Edit; className?: string }[] = [
  { label: 'Heading', text: 'H', edit: prefixLines('## ') },
  { label: 'Bold', text: 'B', edit: wrap('**', 'bold text'), className: 'font-bold' },
  { label: 'Italic', text: 'I', edit: wrap('_', 'italic text'), className: 'italic' },
  { label: 'Bulleted list', text: '• List', edit: prefixLines('- ') },
  { label: 'Link', text: 'Link', edit: link },
  { label: 'Quote', text: '“ Quote', edit: prefixLines('> ') },
];

interface Props extends Omit<ComponentProps<'textarea'>, 'value' | 'onChange'> {
  id: string;
  value: string;
  onChange: (value: string) => void;
}

export function MarkdownEditor({ id, value, onChange, ...textarea }: Props) {
  const ref = useRef<HTMLTextAreaElement | null>(null);
  const preview = useMemo(() => articleHtml(value ?? ''), [value]);
  const apply = (edit: Edit) => {
    const el = ref.current;
    if (!el) return;
    const next = edit(el.value, el.selectionStart, el.selectionEnd);
    // The new value written at once, then the edited text selected and the focus back in the text,
    // before the click handler returns: a key pressed right after the click lands in the text, never
    // on the button (a frame later, as a requestAnimationFrame would, is too late on a busy machine).
    flushSync(() => onChange(next.text));
    el.focus();
    el.setSelectionRange(next.start, next.end);
  };
  return (
    <div>
      <div role="toolbar" aria-label="Formatting" aria-controls={id} className="mb-1 flex flex-wrap gap-1">
        {TOOLS.map((t) => (
          <button
            key={t.label}
            type="button"
            aria-label={t.label}
            title={t.label}
            onClick={() => apply(t.edit)}
            className={`min-h-11 min-w-11 rounded border border-line bg-white px-2 text-sm text-ink hover:bg-surface focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none ${t.className ?? ''}`}
          >
            <span aria-hidden="true">{t.text}</span>
          </button>
        ))}
      </div>
      <Textarea {...textarea} id={id} ref={ref} value={value ?? ''} onChange={(e) => onChange(e.target.value)} />
      <section aria-label="Preview" className="mt-3 rounded-md border border-line bg-white p-4">
        <p className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">Preview</p>
        {/* The article renderer's own output: raw HTML is escaped, links are checked. */}
        <div className="prose-site article-body max-h-80 overflow-y-auto text-base" dangerouslySetInnerHTML={{ __html: preview }} />
      </section>
    </div>
  );
}
