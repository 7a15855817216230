/*
 * What each button of the Markdown toolbar does to the text, as a pure function of the text and
 * the selection: the range it replaces, what it writes there, and the selection after. The editor
 * (markdown-editor.tsx) applies it as one step of the browser's own undo. Nothing the owner typed
 * is ever left selected to be typed over: a mark goes before the caret, a pair around it.
 */

export interface TextEdit {
  /** The range replaced, in the text before the edit. */
  from: number;
  to: number;
  insert: string;
  /** The selection after the edit, in the text after it. */
  selectionStart: number;
  selectionEnd: number;
}

export type Edit = (text: string, start: number, end: number) => TextEdit;

/**
 * Marks the lines the selection touches: each starts with `mark` (numbered from 1 when `mark` is a
 * function), or, when every one already does (`marked`), the mark is taken off again. In a
 * selection of several lines, blank lines are left as they are. The caret keeps its place in the
 * line's own text, so on an empty line it lands after the mark.
 */
const lineMark =
  (mark: string | ((n: number) => string), marked: RegExp): Edit =>
  (text, start, end) => {
    const from = text.lastIndexOf('\n', start - 1) + 1;
    // A selection that ends at the start of a line (a whole line selected by dragging) leaves that line alone.
    const last = end > start && text[end - 1] === '\n' ? end - 1 : end;
    const lineEnd = text.indexOf('\n', last);
    const to = lineEnd === -1 ? text.length : lineEnd;
    const lines = text.slice(from, to).split('\n');
    const several = lines.length > 1;
    const touched = (line: string) => !several || line.trim() !== '';
    const unmark = lines.every((line) => !touched(line) || marked.test(line));
    let n = 0;
    const next = lines.map((line) => {
      if (!touched(line)) return line;
      if (unmark) return line.replace(marked, '');
      n += 1;
      return (typeof mark === 'function' ? mark(n) : mark) + line;
    });
    const insert = next.join('\n');
    if (several) return { from, to, insert, selectionStart: from, selectionEnd: from + insert.length };
    // One line: the selection moves with the line's text (a mark taken off never takes it before the line's start).
    const shift = insert.length - (to - from);
    const at = (p: number) => Math.max(from, p + shift);
    return { from, to, insert, selectionStart: at(start), selectionEnd: at(end) };
  };

/**
 * Wraps the selection in `mark` (selected still, so a second press takes the mark off), or writes
 * the pair with the caret between.
 */
const wrap =
  (mark: string): Edit =>
  (text, start, end) => {
    const n = mark.length;
    if (start < end && text.slice(start - n, start) === mark && text.slice(end, end + n) === mark) {
      return { from: start - n, to: end + n, insert: text.slice(start, end), selectionStart: start - n, selectionEnd: end - n };
    }
    const inner = text.slice(start, end);
    return { from: start, to: end, insert: mark + inner + mark, selectionStart: start + n, selectionEnd: start + n + inner.length };
  };

/**
 * A link: the selection becomes its text and the caret waits between the parentheses for the
 * address; without a selection, the caret waits between the brackets for the text.
 */
const link: Edit = (text, start, end) => {
  const label = text.slice(start, end);
  const insert = `[${label}]()`;
  const caret = label ? start + insert.length - 1 : start + 1;
  return { from: start, to: end, insert, selectionStart: caret, selectionEnd: caret };
};

/**
 * An image (`![alt](url)`) as a paragraph of its own at the caret (replacing a selection), with
 * blank lines around it where the text beside it needs them; the caret after it.
 */
export const image =
  (alt: string, url: string): Edit =>
  (text, start, end) => {
    const before = text.slice(0, start);
    const after = text.slice(end);
    const lead = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
    const trail = after === '' || after.startsWith('\n\n') ? '' : after.startsWith('\n') ? '\n' : '\n\n';
    // Brackets in the text would end the alt text early; a space or parenthesis would end the address.
    const markdown = `![${alt.replace(/[[\]\\]/g, (c) => `\\${c}`)}](${encodeURI(url).replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29'))})`;
    const insert = lead + markdown + trail;
    const caret = start + lead.length + markdown.length;
    return { from: start, to: end, insert, selectionStart: caret, selectionEnd: caret };
  };

export const EDITS = {
  heading: lineMark('## ', /^#{1,6} /),
  bold: wrap('**'),
  italic: wrap('_'),
  code: wrap('`'),
  list: lineMark('- ', /^[-*+] /),
  numbered: lineMark((n) => `${n}. `, /^\d+[.)] /),
  quote: lineMark('> ', /^> ?/),
  link,
} satisfies Record<string, Edit>;
