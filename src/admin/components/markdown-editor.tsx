import { Suspense, lazy, useMemo, useRef, useState, type ComponentProps, type KeyboardEvent } from 'react';
import { Textarea } from '#components/ui/textarea.tsx';
import { articleHtml, articleImageUrls, isOwnImage } from '#shared/markdown.ts';
import { EDITS, image, type Edit, type TextEdit } from './markdown-edits';

/*
 * An insight's text: Markdown in a plain textarea, with a toolbar that writes the marks for the
 * owner (markdown-edits.ts says what each does) and a live preview made by the same renderer as
 * the article page (src/shared/markdown.ts: raw HTML off, so the preview is as safe as the page).
 * Each toolbar action is one step of the browser's own undo: the text is changed as typing would
 * change it (execCommand insertText), never by setting the textarea's value from React, which
 * empties the undo stack.
 */

// The image dialog (the media library, the upload) loads on the first press of Image.
const InsertImageDialog = lazy(() => import('./insert-image-dialog').then((m) => ({ default: m.InsertImageDialog })));

const TOOLS: { label: string; text: string; edit: keyof typeof EDITS; keys?: string; className?: string }[] = [
  { label: 'Heading', text: 'H', edit: 'heading' },
  { label: 'Bold', text: 'B', edit: 'bold', keys: 'b', className: 'font-bold' },
  { label: 'Italic', text: 'I', edit: 'italic', keys: 'i', className: 'italic' },
  { label: 'Code', text: '</>', edit: 'code', className: 'font-mono' },
  { label: 'Bulleted list', text: '• List', edit: 'list' },
  { label: 'Numbered list', text: '1. List', edit: 'numbered' },
  { label: 'Link', text: 'Link', edit: 'link', keys: 'k' },
  { label: 'Quote', text: '“ Quote', edit: 'quote' },
];

/** Writes `edit` into the textarea as one undoable step and selects what it says. */
function applyEdit(el: HTMLTextAreaElement, edit: TextEdit): void {
  el.focus();
  el.setSelectionRange(edit.from, edit.to);
  const expected = el.value.slice(0, edit.from) + edit.insert + el.value.slice(edit.to);
  // insertText is typing as far as the browser knows: its undo stack and an input event for React.
  const typed = edit.insert === '' && edit.from === edit.to ? true : document.execCommand('insertText', false, edit.insert);
  if (!typed || el.value !== expected) {
    // A browser without it: the same text, announced to React (the undo step is the browser's to keep or lose).
    el.setRangeText(edit.insert, edit.from, edit.to);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }
  el.setSelectionRange(edit.selectionStart, edit.selectionEnd);
}

interface Props extends Omit<ComponentProps<'textarea'>, 'value' | 'onChange'> {
  id: string;
  value: string;
  onChange: (value: string) => void;
}

export function MarkdownEditor({ id, value, onChange, ...textarea }: Props) {
  const ref = useRef<HTMLTextAreaElement | null>(null);
  const preview = useMemo(() => articleHtml(value ?? ''), [value]);
  const foreign = useMemo(() => articleImageUrls(value ?? '').filter((url) => !isOwnImage(url)), [value]);
  const [imageOpen, setImageOpen] = useState(false);
  const [imageMounted, setImageMounted] = useState(false);
  /** Where the caret was when Image was pressed: the image goes there, and the focus after it. */
  const caret = useRef<{ start: number; end: number; insert: Edit | null }>({ start: 0, end: 0, insert: null });

  const apply = (edit: Edit) => {
    const el = ref.current;
    if (el) applyEdit(el, edit(el.value, el.selectionStart, el.selectionEnd));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    textarea.onKeyDown?.(e);
    if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
    const tool = TOOLS.find((t) => t.keys === e.key.toLowerCase());
    if (!tool) return;
    e.preventDefault();
    apply(EDITS[tool.edit]);
  };
  const buttonClass =
    'min-h-11 min-w-11 rounded border border-line bg-white px-2 text-sm text-ink hover:bg-surface focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none';
  const notes = foreign.length > 0 ? `${id}-foreign` : undefined;
  const describedBy = [textarea['aria-describedby'], notes].filter(Boolean).join(' ') || undefined;

  return (
    <div>
      <div role="toolbar" aria-label="Formatting" aria-controls={id} className="mb-1 flex flex-wrap gap-1">
        {TOOLS.map((t) => (
          <button
            key={t.label}
            type="button"
            aria-label={t.label}
            aria-keyshortcuts={t.keys ? `Control+${t.keys.toUpperCase()}` : undefined}
            title={t.keys ? `${t.label} (Ctrl+${t.keys.toUpperCase()})` : t.label}
            onClick={() => apply(EDITS[t.edit])}
            className={`${buttonClass} ${t.className ?? ''}`}
          >
            <span aria-hidden="true">{t.text}</span>
          </button>
        ))}
        <button
          type="button"
          aria-haspopup="dialog"
          onClick={() => {
            const el = ref.current;
            caret.current = { start: el?.selectionStart ?? value.length, end: el?.selectionEnd ?? value.length, insert: null };
            setImageMounted(true);
            setImageOpen(true);
          }}
          className={buttonClass}
        >
          Image
        </button>
      </div>
      <Textarea
        {...textarea}
        id={id}
        ref={ref}
        value={value ?? ''}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {notes && (
        <p id={notes} className="mt-1 text-sm text-danger">
          An image from another website is shown in the article as a link, not as a picture: the site shows its own images only. Upload it
          with Image instead.
        </p>
      )}
      {imageMounted && (
        <Suspense fallback={null}>
          <InsertImageDialog
            open={imageOpen}
            onOpenChange={setImageOpen}
            // The image is written once the dialog has closed: while it is open, its focus trap
            // keeps the text from taking the focus that typing it in needs.
            returnFocus={() => {
              const el = ref.current;
              const { start, end, insert } = caret.current;
              if (!el || !insert) return null;
              caret.current.insert = null;
              const at = (p: number) => Math.min(p, el.value.length);
              applyEdit(el, insert(el.value, at(start), at(end)));
              return el;
            }}
            onInsert={(url, alt) => {
              caret.current.insert = image(alt, url);
            }}
          />
        </Suspense>
      )}
      <section aria-label="Preview" className="mt-3 rounded-md border border-line bg-white p-4">
        <p className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">Preview</p>
        {/* The article renderer's own output: raw HTML is escaped, links are checked. */}
        <div className="prose-site article-body max-h-80 overflow-y-auto text-base" dangerouslySetInnerHTML={{ __html: preview }} />
      </section>
    </div>
  );
}
