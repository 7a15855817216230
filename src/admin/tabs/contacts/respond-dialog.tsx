import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '#components/ui/button.tsx';
import { ConfirmDialog } from '#components/ui/confirm-dialog.tsx';
import { Textarea } from '#components/ui/textarea.tsx';
import { isOnlyGreetingAndLinks, renderResponse, replyGreeting } from '#shared/email/render.ts';
import { contactResponseSchema, type ContactResponseInput } from '#shared/schemas/contact-submission.ts';
import { useRespond, type Submission } from '../../api/contact-submissions';
import { replySetupQuery } from '../../api/saved-replies';
import { formatDateTime } from '../../components/load-state';
import { MailPreview } from '../../components/mail-preview';
import { FormDialog, useConfirmDiscard, useUnsavedChanges } from '../../components/unsaved-changes';
import { DeliveryBadge } from './delivery';
import { ReplyInserts, withSavedReply, type SavedReplyInsert } from './reply-inserts';

/**
 * The Respond dialog: the original message, its sender and date, earlier responses with
 * their sent times (and whether their e-mail arrived), and 'Your Response', prefilled once with
 * the greeting, beside a live preview of the whole e-mail as it will be sent. Everything the
 * visitor wrote is shown as text. A reply holding only the greeting and links asks
 * 'Send without a message?' first.
 */
export function RespondDialog({ submission, onClose }: { submission: Submission | null; onClose: () => void }) {
  return (
    <FormDialog
      open={submission !== null}
      onClose={onClose}
      title={submission ? `Respond to ${submission.name}` : 'Respond'}
      className="sm:w-[min(76rem,calc(100vw-2rem))]"
    >
      {submission && <RespondBody key={submission.id} submission={submission} onClose={onClose} />}
    </FormDialog>
  );
}

function RespondBody({ submission: s, onClose }: { submission: Submission; onClose: () => void }) {
  const id = useId();
  const respond = useRespond();
  const setup = useQuery(replySetupQuery);
  // The greeting is the start of the editable text: what is in the box is what is sent.
  const initial = `${replyGreeting(s.name)}\n\n`;
  const form = useForm<ContactResponseInput>({
    resolver: zodResolver(contactResponseSchema),
    defaultValues: { message: initial },
    mode: 'onChange',
  });
  const text = useWatch({ control: form.control, name: 'message' });
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const { ref: registerRef, ...messageField } = form.register('message');
  const preview = useMemo(() => (setup.data ? renderResponse(setup.data.look, s, text, setup.data.context) : null), [setup.data, s, text]);
  // The cursor starts after the greeting, where the reply begins.
  useEffect(() => {
    const el = textarea.current;
    el?.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const [saved, setSaved] = useState<SavedReplyInsert | null>(null);
  const current = saved && saved.message === text ? saved : null;
  const setMessage = (value: string, caret: number, { focus }: { focus: boolean }) => {
    const el = textarea.current;
    form.setValue('message', value, { shouldDirty: true, shouldValidate: true });
    requestAnimationFrame(() => {
      if (!el) return;
      if (focus) el.focus({ preventScroll: true });
      el.setSelectionRange(caret, caret);
      // On a phone the list sits above the box: the box (and what went into it) stays in view.
      el.scrollIntoView({ block: 'nearest' });
    });
  };
  // Inserted at the cursor (or over the selection), with the cursor left after the insert.
  const insert = (snippet: string) => {
    const el = textarea.current;
    const value = form.getValues('message');
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? start;
    setSaved(null);
    setMessage(value.slice(0, start) + snippet + value.slice(end), start + snippet.length, { focus: true });
  };
  // A saved reply goes in as soon as it is chosen; choosing another while the text is as it left
  // it swaps one for the other, so arrowing through the list never piles replies up.
  const chooseSaved = (replyId: string, body: string | null) => {
    const el = textarea.current;
    const next = withSavedReply(
      form.getValues('message'),
      initial,
      current,
      el?.selectionStart ?? null,
      el?.selectionEnd ?? null,
      replyId,
      body,
    );
    setSaved(next.insert);
    setMessage(next.message, next.caret, { focus: false });
  };
  const [confirmEmpty, setConfirmEmpty] = useState(false);
  const error = form.formState.errors.message?.message;
  const sending = respond.isPending || form.formState.isSubmitting;
  useUnsavedChanges(form.formState.isDirty);
  const confirmDiscard = useConfirmDiscard(form.formState.isDirty);
  const send = (message: string) => respond.mutateAsync({ id: s.id, message }).then(onClose, () => undefined);
  const submit = form.handleSubmit(async ({ message }) => {
    if (isOnlyGreetingAndLinks(message)) setConfirmEmpty(true);
    else await send(message);
  });

  return (
    <div className="grid gap-6 text-sm lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <div className="min-w-0 space-y-5">
        <section aria-labelledby={`${id}-original`} className="rounded-md border border-line bg-surface p-4">
          <h3 id={`${id}-original`} className="font-semibold text-ink">
            Original message
          </h3>
          <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[7rem_1fr]">
            <dt className="text-muted">From</dt>
            <dd className="break-words">
              {s.name} &lt;{s.email}&gt;
            </dd>
            {s.company && (
              <>
                <dt className="text-muted">Company</dt>
                <dd className="break-words">{s.company}</dd>
              </>
            )}
            {s.phone && (
              <>
                <dt className="text-muted">Phone</dt>
                <dd className="break-words">{s.phone}</dd>
              </>
            )}
            <dt className="text-muted">Received</dt>
            <dd>{formatDateTime(s.createdAt)}</dd>
          </dl>
          <p className="mt-3 break-words whitespace-pre-line text-ink">{s.message}</p>
        </section>

        <section aria-labelledby={`${id}-previous`}>
          <h3 id={`${id}-previous`} className="font-semibold text-ink">
            Previous responses
          </h3>
          {s.responses.length === 0 ? (
            <p className="mt-1 text-muted">No responses yet.</p>
          ) : (
            <ol className="mt-2 space-y-3">
              {s.responses.map((r) => (
                <li key={r.id} className="rounded-md border border-line p-3">
                  <div className="flex flex-wrap items-center gap-2 text-xs text-muted">
                    <span>Sent {formatDateTime(r.sentAt)}</span>
                    {r.sentBy && <span>by {r.sentBy}</span>}
                    <DeliveryBadge delivery={r.delivery} />
                  </div>
                  <p className="mt-2 break-words whitespace-pre-line text-ink">{r.message}</p>
                </li>
              ))}
            </ol>
          )}
        </section>

        {s.isSpam ? (
          <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">
            This inquiry is in Spam. Mark it &lsquo;Not spam&rsquo; before replying.
          </p>
        ) : (
          <form noValidate onSubmit={submit}>
            <fieldset disabled={sending} className="space-y-2">
              <label htmlFor={`${id}-response`} className="block font-medium text-ink">
                Your Response
              </label>
              <ReplyInserts setup={setup.data} chosen={current?.id ?? ''} onChoose={chooseSaved} onInsert={insert} />
              <Textarea
                id={`${id}-response`}
                rows={10}
                maxLength={10_000}
                aria-invalid={error ? true : undefined}
                aria-describedby={`${id}-help${error ? ` ${id}-error` : ''}`}
                {...messageField}
                ref={(el) => {
                  registerRef(el);
                  textarea.current = el;
                }}
              />
              <p id={`${id}-help`} className="text-xs text-muted">
                Sent by e-mail to {s.email} exactly as written, then the signature, footer and their message, as the preview shows; their
                reply comes back to the business mailbox.
              </p>
              {error && text.length > 0 && (
                <p id={`${id}-error`} className="text-danger">
                  {error}
                </p>
              )}
              <div className="flex gap-2 pt-2">
                <Button type="submit" disabled={sending || text.trim() === ''}>
                  {sending ? 'Sending...' : 'Send'}
                </Button>
                <Button variant="secondary" onClick={() => void confirmDiscard().then((discard) => discard && onClose())}>
                  Cancel
                </Button>
              </div>
            </fieldset>
            <ConfirmDialog
              open={confirmEmpty}
              onOpenChange={setConfirmEmpty}
              title="Send without a message?"
              description="The reply holds only the greeting and links: nothing you wrote. Send it anyway?"
              confirmLabel="Send anyway"
              busyLabel="Sending..."
              busy={sending}
              onConfirm={() => void send(form.getValues('message')).finally(() => setConfirmEmpty(false))}
            />
          </form>
        )}
      </div>
      {preview ? (
        <MailPreview mail={preview} title="Reply preview" heightClass="h-[36rem]" />
      ) : (
        <p role={setup.isError ? 'alert' : 'status'} className="text-muted">
          {setup.isError ? 'The preview could not be loaded; the reply can still be sent.' : 'Loading preview…'}
        </p>
      )}
    </div>
  );
}
