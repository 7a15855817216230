import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import { DEFAULT_ABOUT_ICON, type FeatureSection } from '#shared/constants.ts';
import { featuresQuery, useDeleteFeature, useSaveFeature, type Feature } from '../api/features';
import { iconField } from './icon-field';
import { EditorCard, LoadError, LoadingRows } from './load-state';
import { DeleteConfirm, RowActions, saveFormProps } from './row-actions';
import { LazySchemaForm, type SchemaLoader } from './lazy-form';
import type { FieldSpec } from './schema-form';
import { StackTable } from './stack-table';
import { useRowRequests } from './contact-field-request';
import { FormDialog } from './unsaved-changes';

const FIELDS: FieldSpec[] = [
  { name: 'title', label: 'Title' },
  { name: 'description', label: 'Description', kind: 'textarea', rows: 3 },
  { name: 'icon', label: 'Icon' },
  { name: 'displayOrder', label: 'Display order', kind: 'number' },
  { name: 'isActive', label: 'Active (shown on the website)', kind: 'switch' },
];

/** Each section's card schema (the section itself is not a form field), imported with the form. */
const cardSchema = (section: FeatureSection) => () =>
  import('#shared/schemas/feature.ts').then(
    (m) => m.featureCreateSchema(section).omit({ section: true }) as unknown as z.ZodType<FieldValues, FieldValues>,
  );
const CARD_SCHEMAS: Record<FeatureSection, SchemaLoader> = {
  home: cardSchema('home'),
  about: cardSchema('about'),
  federal: cardSchema('federal'),
};

/** What the site shows while a section has no card at all. */
const WHEN_EMPTY: Record<FeatureSection, string> = {
  home: 'No cards yet; the site shows its three default cards.',
  about: 'No cards yet; the site shows its three default cards.',
  federal: 'No cards: the federal capabilities page shows no product cards.',
};

/** About cards keep an icon-font class (SPEC 3); home cards pick from the service icons. */
const ABOUT_ICON_HELP = `An icon-font class, e.g. ${DEFAULT_ABOUT_ICON}`;

interface Props {
  section: FeatureSection;
  title: string;
  description?: string;
}

/** Feature cards (home), Why Choose Us cards (about) or product cards (federal): table, add/edit dialog, delete confirmation. */
export function FeatureCardsEditor({ section, title, description }: Props) {
  const query = useQuery(featuresQuery(section));
  const save = useSaveFeature(section);
  const remove = useDeleteFeature(section);
  const [editing, setEditing] = useState<Feature | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Feature | null>(null);
  const current = editing === 'new' ? undefined : (editing ?? undefined);
  useRowRequests('feature', section, query.data, setEditing);

  let body;
  if (query.isPending) body = <LoadingRows label={`Loading ${title}`} />;
  else if (query.isError) body = <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.length === 0) body = <p className="text-sm text-muted">{WHEN_EMPTY[section]}</p>;
  else
    body = (
      <StackTable columns={['Title', 'Description', 'Order', 'Status', 'Actions']}>
        {query.data.map((f) => (
          <tr key={f.id} className="border-line align-top md:border-b">
            <td className="py-2 pr-3 font-medium text-ink">{f.title}</td>
            <td data-label="Description" className="py-2 pr-3 md:max-w-md">
              {f.description}
            </td>
            <td data-label="Order" className="py-2 pr-3">
              {f.displayOrder}
            </td>
            <td data-label="Status" className="py-2 pr-3">
              {f.isActive ? <Badge tone="success">Active</Badge> : <Badge tone="muted">Inactive</Badge>}
            </td>
            <td className="py-2">
              <div className="flex gap-2">
                <RowActions name={f.title} onEdit={() => setEditing(f)} onDelete={() => setDeleting(f)} />
              </div>
            </td>
          </tr>
        ))}
      </StackTable>
    );

  return (
    <EditorCard title={title} description={description} actions={<Button onClick={() => setEditing('new')}>Add Feature</Button>}>
      {body}
      <FormDialog open={editing !== null} onClose={() => setEditing(null)} title={current ? 'Edit Feature' : 'Add Feature'}>
        {editing !== null && (
          <LazySchemaForm
            schema={CARD_SCHEMAS[section]}
            fields={FIELDS.map((f) =>
              f.name !== 'icon'
                ? f
                : section === 'about'
                  ? { ...f, help: ABOUT_ICON_HELP }
                  : iconField(current?.icon, section === 'federal'),
            )}
            defaultValues={{
              title: current?.title ?? '',
              description: current?.description ?? '',
              icon: current?.icon ?? (section === 'about' ? DEFAULT_ABOUT_ICON : ''),
              displayOrder: current?.displayOrder ?? query.data?.length ?? 0,
              isActive: current?.isActive ?? true,
            }}
            {...saveFormProps(current, save, () => setEditing(null))}
          />
        )}
      </FormDialog>
      <DeleteConfirm item={deleting} what="feature" onClose={() => setDeleting(null)} remove={remove} />
    </EditorCard>
  );
}
