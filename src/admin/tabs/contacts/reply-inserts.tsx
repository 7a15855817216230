import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Select } from '#components/ui/select.tsx';
import type { ReplySetup } from '#shared/email/render.ts';
import { savedRepliesQuery } from '../../api/saved-replies';

/** The saved reply last put in the text: which one, where, and the whole text right after. */
export interface SavedReplyInsert {
  id: string;
  start: number;
  body: string;
  message: string;
}

/**
 * The text with a saved reply chosen (`body` null: the list's empty choice, which takes the last
 * one out again). `last` is the saved reply put in before, when the text is still as it left it:
 * it is taken out first, so choosing another swaps them. An untouched text (still `initial`, the
 * greeting) becomes the greeting and the saved reply, wherever the cursor was; otherwise it goes in
 * at the cursor (over the selection), or at the end without one.
 */
export function withSavedReply(
  message: string,
  initial: string,
  last: SavedReplyInsert | null,
  selectionStart: number | null,
  selectionEnd: number | null,
  id: string,
  body: string | null,
): { message: string; caret: number; insert: SavedReplyInsert | null } {
  let base = message;
  let start = selectionStart ?? message.length;
  let end = selectionEnd ?? start;
  if (last) {
    base = message.slice(0, last.start) + message.slice(last.start + last.body.length);
    start = end = last.start;
  }
  if (body === null) return { message: base, caret: start, insert: null };
  if (base === initial) start = end = initial.length;
  const next = base.slice(0, start) + body + base.slice(end);
  return { message: next, caret: start + body.length, insert: { id, start, body, message: next } };
}

/**
 * The Respond dialog's inserts: a saved reply, put in the text as soon as it is chosen (choosing
 * another while the text is unchanged swaps it, so arrowing through the list leaves one), and the
 * capability statement's link, when an active capability document exists, at the text's cursor.
 */
export function ReplyInserts({
  setup,
  chosen,
  onChoose,
  onInsert,
}: {
  setup: ReplySetup | undefined;
  /** The saved reply in the text, as it was put in ('' for none). */
  chosen: string;
  onChoose: (id: string, body: string | null) => void;
  onInsert: (text: string) => void;
}) {
  const id = useId();
  const saved = useQuery(savedRepliesQuery);
  const replies = saved.data ?? [];
  const capability = setup?.capabilityStatement;

  return (
    <div className="flex flex-wrap items-end gap-2">
      {replies.length > 0 && (
        <div className="min-w-0 max-w-full">
          <label htmlFor={`${id}-saved`} className="mb-1 block text-xs font-medium text-ink">
            Insert a saved reply
          </label>
          <Select
            id={`${id}-saved`}
            className="max-w-full"
            value={chosen}
            onChange={(e) => onChoose(e.target.value, replies.find((r) => String(r.id) === e.target.value)?.body ?? null)}
            options={[{ value: '', label: 'Choose a saved reply…' }, ...replies.map((r) => ({ value: String(r.id), label: r.title }))]}
          />
        </div>
      )}
      {capability && (
        <Button variant="secondary" size="sm" onClick={() => onInsert(capability.url)} title={capability.title}>
          Insert capability statement link
        </Button>
      )}
    </div>
  );
}
