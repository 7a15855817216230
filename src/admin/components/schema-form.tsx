import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Controller, useForm, type Control, type FieldValues, type Resolver, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '#components/ui/button.tsx';
import { Input } from '#components/ui/input.tsx';
import { Select, type SelectOption } from '#components/ui/select.tsx';
import { Switch } from '#components/ui/switch.tsx';
import { Textarea } from '#components/ui/textarea.tsx';
import { normalizeSlug, slugFromTitle } from '#shared/schemas/insight.ts';
import { ImagePicker, type ImagePickerVariant } from './image-picker';
import { formatDateTime } from './load-state';
import { MarkdownEditor } from './markdown-editor';
import { useLocalDraft } from './local-draft';
import { useConfirmDiscard, useUnsavedChanges } from './unsaved-changes';

export interface FieldSpec {
  name: string;
  label: string;
  kind?: 'text' | 'textarea' | 'markdown' | 'number' | 'select' | 'switch' | 'slug' | 'image';
  rows?: number;
  options?: readonly SelectOption[];
  help?: string;
  /** kind 'image': images offered as one-click choices (e.g. suggested backgrounds). */
  suggestions?: readonly { label: string; value: string }[];
  /** kind 'image': the field holding the image's alt text (none: no alt field, e.g. logos). */
  altName?: string;
  /** kind 'image': which picker (SPEC 2.16 full, the simple uploader, the About uploader). */
  variant?: ImagePickerVariant;
  /** kind 'image': marked required in its legend. */
  required?: boolean;
}

interface SchemaFormProps {
  /** The shared zod schema the endpoint uses too. */
  schema: z.ZodType<FieldValues, FieldValues>;
  defaultValues: FieldValues;
  fields: FieldSpec[];
  /** Receives the parsed values (after the schema's transforms). */
  onSubmit: (values: FieldValues) => Promise<unknown>;
  onCancel?: () => void;
  submitLabel: string;
  /** A new record: the slug follows the title until edited by hand. */
  isCreate?: boolean;
  /** Rendered above the fields, with the form (e.g. a file upload that fills the title). */
  before?: (form: UseFormReturn<FieldValues>) => ReactNode;
  /** Long texts: unsaved changes are kept in this browser under this key until saved or discarded. */
  draftKey?: string;
}

/**
 * A react-hook-form form over a shared zod schema: labels tied to inputs, the schema's message
 * under each invalid field, the fieldset disabled while saving.
 */
export function SchemaForm({
  schema,
  defaultValues,
  fields,
  onSubmit,
  onCancel,
  submitLabel,
  isCreate,
  before,
  draftKey,
}: SchemaFormProps) {
  const prefix = useId();
  const form = useForm<FieldValues>({
    resolver: zodResolver(schema as never) as Resolver<FieldValues>,
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, control, setValue, formState } = form;
  const slugTouched = useRef(Boolean(defaultValues.slug));
  const slugField = fields.find((f) => f.kind === 'slug');

  const draft = useLocalDraft(draftKey, form);
  useUnsavedChanges(formState.isDirty, draft.clear);
  const confirmDiscard = useConfirmDiscard(formState.isDirty);

  const submit = handleSubmit(async (values) => {
    if (
      await onSubmit(values).then(
        () => true,
        () => false,
      )
    )
      draft.clear();
  });
  const cancel =
    onCancel &&
    (() =>
      void confirmDiscard().then((discard) => {
        if (!discard) return;
        draft.clear();
        onCancel();
      }));

  return (
    <form noValidate onSubmit={submit}>
      <fieldset disabled={formState.isSubmitting} className="space-y-4">
        {draft.offer && (
          <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            <p>Changes you had not saved ({formatDateTime(new Date(draft.offer.savedAt).toISOString())}) are kept in this browser.</p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button size="sm" onClick={draft.restore}>
                Restore draft
              </Button>
              <Button size="sm" variant="secondary" onClick={draft.clear}>
                Discard draft
              </Button>
            </div>
          </div>
        )}
        {before?.(form)}
        {fields.map((field) => {
          const id = `${prefix}-${field.name}`;
          const error = formState.errors[field.name]?.message as string | undefined;
          const describedBy = [error && `${id}-error`, field.help && `${id}-help`].filter(Boolean).join(' ') || undefined;
          const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy };
          let control_: React.ReactNode;
          if (field.kind === 'image') {
            return <ImageFormField key={field.name} control={control} field={field} error={error} />;
          }
          if (field.kind === 'switch') {
            control_ = (
              <Controller
                control={control}
                name={field.name}
                render={({ field: f }) => <Switch {...common} checked={Boolean(f.value)} onCheckedChange={f.onChange} />}
              />
            );
          } else if (field.kind === 'markdown') {
            control_ = (
              <Controller
                control={control}
                name={field.name}
                render={({ field: f }) => (
                  <MarkdownEditor
                    {...common}
                    rows={field.rows ?? 10}
                    value={String(f.value ?? '')}
                    onChange={f.onChange}
                    onBlur={f.onBlur}
                    name={f.name}
                  />
                )}
              />
            );
          } else if (field.kind === 'textarea') {
            control_ = <Textarea {...common} rows={field.rows ?? 4} {...register(field.name)} />;
          } else if (field.kind === 'select') {
            control_ = <Select {...common} options={field.options ?? []} {...register(field.name)} />;
          } else if (field.kind === 'slug') {
            const reg = register(field.name);
            control_ = (
              <Input
                {...common}
                {...reg}
                onChange={(e) => {
                  slugTouched.current = true;
                  e.target.value = normalizeSlug(e.target.value);
                  void reg.onChange(e);
                }}
              />
            );
          } else {
            const reg = register(field.name);
            control_ = (
              <Input
                {...common}
                type={field.kind === 'number' ? 'number' : 'text'}
                inputMode={field.kind === 'number' ? 'numeric' : undefined}
                {...reg}
                onChange={(e) => {
                  void reg.onChange(e);
                  // SPEC 5: on create, an untouched slug is generated from the title.
                  if (isCreate && slugField && field.name === 'title' && !slugTouched.current) {
                    setValue(slugField.name, slugFromTitle(e.target.value));
                  }
                }}
              />
            );
          }
          return (
            <div key={field.name} className={field.kind === 'switch' ? 'flex items-center gap-3' : undefined}>
              <label
                htmlFor={id}
                className={field.kind === 'switch' ? 'order-2 text-sm font-medium' : 'mb-1 block text-sm font-medium text-ink'}
              >
                {field.label}
              </label>
              {control_}
              <FieldNotes id={id} help={field.help} error={error} />
            </div>
          );
        })}
      </fieldset>
      <FormActions submitting={formState.isSubmitting} submitLabel={submitLabel} onCancel={cancel} />
    </form>
  );
}

/** How long a save may go unanswered before the form says so. */
export const STALL_MS = 8000;

/**
 * A form's submit button ('Saving…' while it saves) and, when it can be left, Cancel: a bar that
 * stays at the bottom of the screen while the form is in view, so a long form is saved from anywhere.
 * A save with no answer after 8 s says so, with Retry: without a connection the save waits (the
 * typing stays in the form) and goes through when the connection is back or on Retry. It sits
 * after the form's disabled fieldset, so Retry can be pressed while the save waits.
 */
export function FormActions({ submitting, submitLabel, onCancel }: { submitting: boolean; submitLabel: string; onCancel?: () => void }) {
  const stalled = useStalled(submitting);
  const qc = useQueryClient();
  return (
    <div className="form-actions flex flex-wrap items-center gap-2">
      <Button type="submit" disabled={submitting}>
        {submitting ? 'Saving…' : submitLabel}
      </Button>
      {onCancel && (
        <Button variant="secondary" onClick={onCancel} disabled={submitting}>
          Cancel
        </Button>
      )}
      <p role="status" className="text-sm text-amber-900 empty:hidden">
        {stalled && 'Still saving… check your connection'}
      </p>
      {stalled && (
        <Button size="sm" variant="secondary" onClick={() => void qc.resumePausedMutations()}>
          Retry
        </Button>
      )}
    </div>
  );
}

/** True once `busy` has lasted STALL_MS; false again as soon as it ends. */
function useStalled(busy: boolean): boolean {
  const [stalled, setStalled] = useState(false);
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => setStalled(true), STALL_MS);
    return () => {
      clearTimeout(timer);
      setStalled(false);
    };
  }, [busy]);
  return busy && stalled;
}

/** A field's help text and validation message, with the ids its `aria-describedby` points to. */
export function FieldNotes({ id, help, error }: { id: string; help?: string; error?: string }) {
  return (
    <>
      {help && (
        <p id={`${id}-help`} className="mt-1 text-xs text-muted">
          {help}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-danger">
          {error}
        </p>
      )}
    </>
  );
}

/** An image field: the picker bound to the URL field and, when the field has one, its alt text field. */
function ImageFormField({ control, field, error }: { control: Control<FieldValues>; field: FieldSpec; error?: string }) {
  const picker = (alt?: { value: string; onChange: (v: string) => void }) => (
    <Controller
      control={control}
      name={field.name}
      render={({ field: f }) => (
        <ImagePicker
          label={field.label}
          description={field.help}
          required={field.required}
          variant={field.variant}
          error={error}
          suggestions={field.suggestions}
          url={(f.value as string | null) ?? ''}
          onUrlChange={f.onChange}
          alt={alt?.value}
          onAltChange={alt?.onChange}
        />
      )}
    />
  );
  if (!field.altName) return picker();
  return (
    <Controller
      control={control}
      name={field.altName}
      render={({ field: a }) => picker({ value: (a.value as string | null) ?? '', onChange: a.onChange })}
    />
  );
}
