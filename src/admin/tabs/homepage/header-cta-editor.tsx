import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import { BUTTON_STYLES } from '#shared/constants.ts';
import { sectionQuery, useSaveSection, type HeaderCta } from '../../api/content';
import { EditorCard, LoadError, LoadingRows } from '../../components/load-state';
import { saveFormProps } from '../../components/row-actions';
import { LazySchemaForm } from '../../components/lazy-form';
import type { FieldSpec } from '../../components/schema-form';
import { errorMessage } from '#lib/api-client.ts';

const ctaForm = () =>
  import('#shared/schemas/header-cta.ts').then((m) => m.headerCtaSchema as unknown as z.ZodType<FieldValues, FieldValues>);

const FIELDS: FieldSpec[] = [
  { name: 'buttonText', label: 'Button text' },
  { name: 'buttonLink', label: 'Button link', help: 'A page such as /contact, a full https:// URL, mailto: or tel:.' },
  {
    name: 'buttonStyle',
    label: 'Button style',
    kind: 'select',
    options: BUTTON_STYLES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) })),
  },
  { name: 'isVisible', label: 'Visible on the home page', kind: 'switch' },
  { name: 'isActive', label: 'Active version', kind: 'switch' },
];

/** Header call-to-action versions; the server keeps exactly one active. */
export function HeaderCtaEditor() {
  const query = useQuery(sectionQuery<HeaderCta>('header-cta'));
  const [editing, setEditing] = useState<HeaderCta | 'new' | null>(null);
  const save = useSaveSection<HeaderCta>('header-cta', {
    success: 'Content updated',
    failure: (isCreate, err) => `Failed to ${isCreate ? 'create' : 'update'} header CTA: ${errorMessage(err, 'Unknown error')}`,
  });
  const current = editing === 'new' ? undefined : (editing ?? undefined);

  let body;
  if (query.isPending) body = <LoadingRows label="Loading header call-to-action" />;
  else if (query.isError) body = <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  else if (editing !== null)
    body = (
      <LazySchemaForm
        key={current ? `${current.id}-${current.version}` : 'new'}
        schema={ctaForm}
        fields={FIELDS}
        defaultValues={{
          buttonText: current?.buttonText ?? '',
          buttonLink: current?.buttonLink ?? '',
          buttonStyle: current?.buttonStyle ?? 'primary',
          isVisible: current?.isVisible ?? true,
          isActive: current?.isActive ?? true,
        }}
        {...saveFormProps(current, save, () => setEditing(null))}
      />
    );
  else if (query.data.length === 0)
    body = <p className="text-sm text-muted">No versions yet; the home page shows 'Request Quick Quote'.</p>;
  else
    body = (
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {query.data.map((cta) => (
          <li key={cta.id} className="rounded-md border border-line p-4">
            <p className="font-semibold text-ink">{cta.buttonText}</p>
            <p className="mt-1 text-sm break-all">{cta.buttonLink}</p>
            <div className="mt-2 flex flex-wrap gap-1">
              {cta.isActive && <Badge tone="success">Active</Badge>}
              <Badge tone={cta.isVisible ? 'neutral' : 'muted'}>{cta.isVisible ? 'Visible' : 'Hidden'}</Badge>
              <Badge>{cta.buttonStyle}</Badge>
            </div>
            <Button size="sm" variant="secondary" className="mt-3" onClick={() => setEditing(cta)} aria-label={`Edit ${cta.buttonText}`}>
              Edit
            </Button>
          </li>
        ))}
      </ul>
    );

  return (
    <EditorCard
      title="Header Call-to-Action Button"
      description="Only one version can be active at a time; activating one deactivates the others."
      actions={editing === null ? <Button onClick={() => setEditing('new')}>Add Version</Button> : undefined}
    >
      {body}
    </EditorCard>
  );
}
