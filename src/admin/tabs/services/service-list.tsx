import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import { SERVICE_ICON_LABELS } from '#shared/constants.ts';
import { servicesQuery, useDeleteService, useSaveService, type Service } from '../../api/services';
import { useRowRequests } from '../../components/contact-field-request';
import { EditorCard, LoadError, LoadingRows } from '../../components/load-state';
import { iconField } from '../../components/icon-field';
import { DeleteConfirm, RowActions, saveFormProps } from '../../components/row-actions';
import { LazySchemaForm } from '../../components/lazy-form';
import type { FieldSpec } from '../../components/schema-form';

const serviceForm = () =>
  import('#shared/schemas/service.ts').then((m) => m.serviceSchema as unknown as z.ZodType<FieldValues, FieldValues>);

const fields = (current: Service | undefined): FieldSpec[] => [
  { name: 'title', label: 'Service name' },
  { name: 'description', label: 'Description', kind: 'textarea', rows: 3 },
  iconField(current?.icon),
  { name: 'imageSrc', label: 'Service image (optional)', kind: 'image', altName: 'imageAlt', help: 'Recommended size 1000x600.' },
  { name: 'detailedDescription', label: 'Detailed description (optional)', kind: 'textarea', rows: 5 },
  { name: 'displayOrder', label: 'Display order', kind: 'number' },
  { name: 'isActive', label: 'Active (shown on the website)', kind: 'switch' },
];

/** Services sorted by displayOrder: Add Service, an edit form view, delete with confirmation. */
export function ServiceList() {
  const query = useQuery(servicesQuery);
  const save = useSaveService();
  const remove = useDeleteService();
  const [editing, setEditing] = useState<Service | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Service | null>(null);
  const current = editing === 'new' ? undefined : (editing ?? undefined);
  useRowRequests('service', undefined, query.data, setEditing);
  const sorted = [...(query.data ?? [])].sort((a, b) => a.displayOrder - b.displayOrder || a.id - b.id);

  let body;
  if (query.isPending) body = <LoadingRows label="Loading services" />;
  else if (query.isError) body = <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  else if (editing !== null)
    body = (
      <>
        <h3 className="mb-3 font-semibold">{current ? `Edit ${current.title}` : 'New Service'}</h3>
        <LazySchemaForm
          key={current ? `${current.id}-${current.version}` : 'new'}
          schema={serviceForm}
          fields={fields(current)}
          defaultValues={{
            title: current?.title ?? '',
            description: current?.description ?? '',
            icon: current?.icon ?? '',
            imageSrc: current?.imageSrc ?? '',
            imageAlt: current?.imageAlt ?? '',
            detailedDescription: current?.detailedDescription ?? '',
            displayOrder: current?.displayOrder ?? sorted.length,
            isActive: current?.isActive ?? true,
          }}
          {...saveFormProps(current, save, () => setEditing(null))}
        />
      </>
    );
  else if (sorted.length === 0)
    body = <p className="text-sm text-muted">No services yet; the consulting page shows its three default services.</p>;
  else
    body = (
      <ul className="divide-y divide-line">
        {sorted.map((s) => (
          <li key={s.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
            <div className="max-w-2xl">
              <p className="font-semibold text-ink">
                {s.title} {!s.isActive && <Badge tone="muted">Inactive</Badge>}
              </p>
              <p className="mt-1 text-sm">{s.description}</p>
              <p className="mt-1 text-xs text-muted">
                Order {s.displayOrder} · Icon {SERVICE_ICON_LABELS[s.icon as keyof typeof SERVICE_ICON_LABELS] ?? s.icon}
              </p>
            </div>
            <div className="flex gap-2">
              <RowActions name={s.title} onEdit={() => setEditing(s)} onDelete={() => setDeleting(s)} />
            </div>
          </li>
        ))}
      </ul>
    );

  return (
    <EditorCard title="Services" actions={editing === null ? <Button onClick={() => setEditing('new')}>Add Service</Button> : undefined}>
      {body}
      <DeleteConfirm item={deleting} what="service" onClose={() => setDeleting(null)} remove={remove} />
    </EditorCard>
  );
}
