import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '#components/ui/button.tsx';
import { Input } from '#components/ui/input.tsx';
import { Textarea } from '#components/ui/textarea.tsx';
import { SAVED_REPLY_BODY_MAX, savedReplySchema, type SavedReplyInput, type SavedReplyValues } from '#shared/schemas/saved-reply.ts';
import { useSaveSavedReply, type SavedReply } from '../../api/saved-replies';
import { FormDialog, useConfirmDiscard, useUnsavedChanges } from '../../components/unsaved-changes';

/** Create or edit a saved reply: a title to pick it by and the text the Respond dialog inserts. */
export function SavedReplyDialog({ reply, onClose }: { reply: SavedReply | 'new' | null; onClose: () => void }) {
  const current = reply === 'new' ? undefined : (reply ?? undefined);
  return (
    <FormDialog open={reply !== null} onClose={onClose} title={current ? 'Edit Saved Reply' : 'New Saved Reply'}>
      {reply !== null && <SavedReplyForm key={current ? `${current.id}-${current.version}` : 'new'} current={current} onClose={onClose} />}
    </FormDialog>
  );
}

function SavedReplyForm({ current, onClose }: { current: SavedReply | undefined; onClose: () => void }) {
  const id = useId();
  const save = useSaveSavedReply();
  const form = useForm<SavedReplyInput, unknown, SavedReplyValues>({
    resolver: zodResolver(savedReplySchema),
    defaultValues: { title: current?.title ?? '', body: current?.body ?? '' },
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty);
  const confirmDiscard = useConfirmDiscard(isDirty);
  const submit = form.handleSubmit(async (values) => {
    await save.mutateAsync({ id: current?.id, version: current?.version, values }).then(onClose, () => undefined);
  });
  const described = (name: 'title' | 'body', help?: string) => {
    const ids = [help, errors[name] ? `${id}-${name}-error` : undefined].filter(Boolean).join(' ');
    return { 'aria-invalid': errors[name] ? true : undefined, 'aria-describedby': ids || undefined };
  };
  const error = (name: 'title' | 'body') =>
    errors[name] && (
      <p id={`${id}-${name}-error`} className="mt-1 text-sm text-danger">
        {errors[name]?.message}
      </p>
    );

  return (
    <form noValidate onSubmit={submit}>
      <fieldset disabled={isSubmitting} className="space-y-4">
        <div>
          <label htmlFor={`${id}-title`} className="mb-1 block text-sm font-medium text-ink">
            Title
          </label>
          <Input id={`${id}-title`} maxLength={100} {...described('title')} {...form.register('title')} />
          {error('title')}
        </div>
        <div>
          <label htmlFor={`${id}-body`} className="mb-1 block text-sm font-medium text-ink">
            Text
          </label>
          <Textarea
            id={`${id}-body`}
            rows={8}
            maxLength={SAVED_REPLY_BODY_MAX}
            {...described('body', `${id}-body-help`)}
            {...form.register('body')}
          />
          <p id={`${id}-body-help`} className="mt-1 text-xs text-muted">
            Inserted at the cursor in a reply, where it can still be edited before sending.
          </p>
          {error('body')}
        </div>
        <div className="flex gap-2 pt-2">
          <Button type="submit">{isSubmitting ? 'Saving…' : current ? 'Save Changes' : 'Create Saved Reply'}</Button>
          <Button variant="secondary" onClick={() => void confirmDiscard().then((discard) => discard && onClose())}>
            Cancel
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
