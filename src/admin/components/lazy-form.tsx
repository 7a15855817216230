import { lazy, Suspense, use, useState, type ComponentProps, type ComponentType } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { LoadingRows } from './load-state';
import type { SchemaForm } from './schema-form';

/*
 * The back office's forms (react-hook-form over the shared zod schemas, more than a tab's budget)
 * load when a form is first opened, not with the tab: a tab shows its records at once, and only
 * Edit, New or Reply waits for the form code, once per visit. The schema is handed over as a
 * function that imports it, so the tab's own code never imports zod.
 */

/** Imports a form's shared zod schema (e.g. `() => import('#shared/schemas/service.ts').then((m) => m.serviceSchema)`). */
export type SchemaLoader = () => Promise<z.ZodType<FieldValues, FieldValues>>;

type SchemaFormProps = ComponentProps<typeof SchemaForm>;

const LoadedSchemaForm = lazy(() => import('./schema-form').then((m) => ({ default: m.SchemaForm })));

/** Each schema's import, started once (a failed one is tried again next time). */
const schemas = new Map<SchemaLoader, Promise<z.ZodType<FieldValues, FieldValues>>>();
function schemaOf(load: SchemaLoader) {
  let loading = schemas.get(load);
  if (!loading) {
    loading = load();
    schemas.set(load, loading);
    loading.catch(() => schemas.delete(load));
  }
  return loading;
}

function FormWithSchema({ schema, ...props }: Omit<SchemaFormProps, 'schema'> & { schema: SchemaLoader }) {
  return <LoadedSchemaForm schema={use(schemaOf(schema))} {...props} />;
}

/** `SchemaForm`, loaded with its schema the first time it is shown. */
export function LazySchemaForm(props: Omit<SchemaFormProps, 'schema'> & { schema: SchemaLoader }) {
  return (
    <Suspense fallback={<LoadingRows label="Loading the form" />}>
      <FormWithSchema {...props} />
    </Suspense>
  );
}

/** A component of a module loaded on first use (a dialog or a form that imports react-hook-form itself). */
export function lazyNamed<K extends string, P extends object>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  return lazy(() => load().then((m) => ({ default: m[name] })));
}

/**
 * Whether a lazily loaded dialog has been opened yet: it is mounted from then on, so later
 * openings and closings behave as an always-mounted dialog's (focus return, unsaved-changes guard).
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  // State derived while rendering, as React allows: no extra render pass after the first opening.
  if (open && !opened) setOpened(true);
  return opened || open;
}
