import type { UseQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ChecklistRecord } from '#shared/launch-checklist.ts';
import type { FieldValues } from 'react-hook-form';
import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import type { Versioned } from '#shared/schemas/stored.ts';
import { useRecordRequests } from './contact-field-request';
import { EditorCard, LoadError, LoadingRows, formatDateTime } from './load-state';
import { draftKey, readDraft } from './local-draft';
import { LazySchemaForm, type SchemaLoader } from './lazy-form';
import type { FieldSpec } from './schema-form';

export interface ViewRow {
  label: string;
  value: ReactNode;
}

interface RecordEditorProps<R extends Versioned & { isActive?: boolean }> {
  title: string;
  description?: string;
  /** The section's versions; the first is the one the site shows. */
  query: UseQueryResult<R[]>;
  /** Imports the shared zod schema (with the form, on the first Edit). */
  schema: SchemaLoader;
  fields: FieldSpec[];
  toForm: (record: R | undefined) => FieldValues;
  view: (record: R) => ViewRow[];
  /** Create (no record) or partial update with the loaded version; resolves when saved. */
  save: (vars: { id?: number; version?: number; values: FieldValues }) => Promise<unknown>;
  /** Offer 'Create New' beside 'Edit' (About main content). */
  allowCreateNew?: boolean;
  emptyText?: string;
  /** The edit button's text; defaults to 'Edit {title}'. */
  editLabel?: string;
  /** Long texts: unsaved changes are kept in this browser as a draft of this kind, per record. */
  draftKind?: string;
  /** Whether a launch checklist link names this record: the editor then opens for editing, in view. */
  requested?: (record: ChecklistRecord) => boolean;
}

/**
 * A single content record (header, intro, hero, mission...): view mode with its fields and last
 * update, edit mode with the shared schema's form. Saving creates when nothing is stored yet.
 */
export function RecordEditor<R extends Versioned & { isActive?: boolean }>(props: RecordEditorProps<R>) {
  const { title, description, query, schema, fields, toForm, view, save, allowCreateNew, emptyText, editLabel, draftKind, requested } =
    props;
  const [mode, setMode] = useState<'view' | 'edit' | 'create'>('view');
  const record = query.data?.[0];
  const box = useRef<HTMLDivElement>(null);
  const [scrollTo, setScrollTo] = useState(0);
  useRecordRequests(
    useCallback(
      (r: ChecklistRecord) => {
        if (!requested?.(r)) return false;
        setMode('edit');
        setScrollTo((n) => n + 1);
        return true;
      },
      [requested],
    ),
  );
  useEffect(() => {
    if (scrollTo > 0) box.current?.scrollIntoView({ block: 'start' });
  }, [scrollTo, query.isPending]);

  if (query.isPending)
    return (
      <EditorCard title={title} description={description}>
        <LoadingRows label={`Loading ${title}`} />
      </EditorCard>
    );
  if (query.isError)
    return (
      <EditorCard title={title} description={description}>
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      </EditorCard>
    );

  const editing = mode !== 'view';
  const target = mode === 'create' ? undefined : record;
  // After a reload the editor starts in view mode: say that a draft is waiting, and where.
  const keptDraft = !editing && draftKind !== undefined && readDraft(draftKey(draftKind, record?.id)) !== null;
  const actions = editing ? undefined : (
    <>
      {allowCreateNew && record && (
        <Button variant="secondary" onClick={() => setMode('create')}>
          Create New
        </Button>
      )}
      <Button onClick={() => setMode(record ? 'edit' : 'create')}>{record ? (editLabel ?? `Edit ${title}`) : `Create ${title}`}</Button>
    </>
  );

  return (
    <div ref={box}>
      <EditorCard title={title} description={description} actions={actions}>
        {keptDraft && (
          <p role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            Changes to {title} that you had not saved are kept in this browser: choose{' '}
            {record ? (editLabel ?? `Edit ${title}`) : `Create ${title}`} to restore them.
          </p>
        )}
        {editing ? (
          <LazySchemaForm
            key={`${mode}-${target?.id ?? 'new'}-${target?.version ?? 0}`}
            schema={schema}
            defaultValues={toForm(target)}
            fields={fields}
            submitLabel={target ? 'Save Changes' : 'Create'}
            draftKey={draftKind === undefined ? undefined : draftKey(draftKind, target?.id)}
            onCancel={() => setMode('view')}
            onSubmit={async (values) => {
              await save({ id: target?.id, version: target?.version, values });
              setMode('view');
            }}
          />
        ) : record ? (
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[12rem_1fr]">
            {view(record).map((row) => (
              <div key={row.label} className="contents">
                <dt className="font-medium text-muted">{row.label}</dt>
                <dd className="break-words whitespace-pre-line text-ink">{row.value || '—'}</dd>
              </div>
            ))}
            {record.isActive !== undefined && (
              <div className="contents">
                <dt className="font-medium text-muted">Status</dt>
                <dd>{record.isActive ? <Badge tone="success">Active</Badge> : <Badge tone="muted">Inactive</Badge>}</dd>
              </div>
            )}
            <div className="contents">
              <dt className="font-medium text-muted">Last updated</dt>
              <dd>{formatDateTime(record.updatedAt)}</dd>
            </div>
          </dl>
        ) : (
          <p className="text-sm text-muted">{emptyText ?? 'Nothing saved yet; the site shows its built-in text.'}</p>
        )}
      </EditorCard>
    </div>
  );
}
