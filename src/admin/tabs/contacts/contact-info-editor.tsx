import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import { contactInfoSchema } from '#shared/schemas/contact-info.ts';
import { contactInfoQuery, useSaveContactInfo, type ContactInfo } from '../../api/contact-info';
import { EditorCard, LoadError, LoadingRows, formatDateTime } from '../../components/load-state';
import { saveFormProps } from '../../components/row-actions';
import { SchemaForm, type FieldSpec } from '../../components/schema-form';

const FIELDS: FieldSpec[] = [
  { name: 'email', label: 'Email' },
  { name: 'phone', label: 'Phone' },
  { name: 'address', label: 'Address', kind: 'textarea', rows: 3, help: 'One line per line of the address.' },
  { name: 'businessHours', label: 'Business hours', kind: 'textarea', rows: 3, help: 'One line per line shown.' },
  { name: 'isActive', label: 'Active: shown on the website', kind: 'switch' },
  { name: 'displayEmail', label: 'Show the email', kind: 'switch' },
  { name: 'displayPhone', label: 'Show the phone', kind: 'switch' },
  { name: 'displayAddress', label: 'Show the address', kind: 'switch' },
  { name: 'displayBusinessHours', label: 'Show the business hours', kind: 'switch' },
];

const SHOWN = [
  ['displayEmail', 'email', 'Email'],
  ['displayPhone', 'phone', 'Phone'],
  ['displayAddress', 'address', 'Address'],
  ['displayBusinessHours', 'businessHours', 'Hours'],
] as const;

/** Business contact information: cards with Displayed/Hidden badges, add and edit; one record active. */
export function ContactInfoEditor() {
  const query = useQuery(contactInfoQuery);
  const save = useSaveContactInfo();
  const [editing, setEditing] = useState<ContactInfo | 'new' | null>(null);
  const current = editing === 'new' ? undefined : (editing ?? undefined);

  let body;
  if (query.isPending) body = <LoadingRows label="Loading contact information" />;
  else if (query.isError) body = <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  else if (editing !== null)
    body = (
      <SchemaForm
        key={current ? `${current.id}-${current.version}` : 'new'}
        schema={contactInfoSchema as unknown as z.ZodType<FieldValues, FieldValues>}
        fields={FIELDS}
        defaultValues={{
          email: current?.email ?? '',
          phone: current?.phone ?? '',
          address: current?.address ?? '',
          businessHours: current?.businessHours ?? '',
          isActive: current?.isActive ?? true,
          displayEmail: current?.displayEmail ?? true,
          displayPhone: current?.displayPhone ?? true,
          displayAddress: current?.displayAddress ?? true,
          displayBusinessHours: current?.displayBusinessHours ?? true,
        }}
        {...saveFormProps(current, save, () => setEditing(null))}
      />
    );
  else if (query.data.length === 0)
    body = <p className="text-sm text-muted">No contact information yet; the contact page says it is temporarily unavailable.</p>;
  else
    body = (
      <ul className="grid gap-3 sm:grid-cols-2">
        {query.data.map((info) => (
          <li key={info.id} className="rounded-md border border-line p-4 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <p className="font-semibold break-all text-ink">{info.email}</p>
              {info.isActive ? <Badge tone="success">Displayed</Badge> : <Badge tone="muted">Hidden</Badge>}
            </div>
            <dl className="mt-2 grid grid-cols-[5rem_1fr] gap-x-3 gap-y-1">
              {SHOWN.map(([flag, key, label]) => (
                <div key={key} className="contents">
                  <dt className="text-muted">{label}</dt>
                  <dd className="break-words whitespace-pre-line">
                    {info[key]} {!info[flag] && <span className="text-muted">(not shown)</span>}
                  </dd>
                </div>
              ))}
            </dl>
            <p className="mt-2 text-xs text-muted">Last updated {formatDateTime(info.updatedAt)}</p>
            <Button size="sm" variant="secondary" className="mt-3" onClick={() => setEditing(info)} aria-label={`Edit ${info.email}`}>
              Edit
            </Button>
          </li>
        ))}
      </ul>
    );

  return (
    <EditorCard
      title="Business Contact Information"
      description="Only one record can be active at a time: the active one is shown on the contact page and wherever the site names the business's e-mail."
      actions={editing === null ? <Button onClick={() => setEditing('new')}>Add Contact Information</Button> : undefined}
    >
      {body}
    </EditorCard>
  );
}
