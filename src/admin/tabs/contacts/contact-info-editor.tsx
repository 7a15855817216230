import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import { contactInfoQuery, useSaveContactInfo, type ContactInfo } from '../../api/contact-info';
import { useContactFieldRequests, type ContactField } from '../../components/contact-field-request';
import { lazyNamed } from '../../components/lazy-form';
import { EditorCard, LoadError, LoadingRows, formatDateTime } from '../../components/load-state';

// The form (react-hook-form and the shared zod schema) loads when a record is edited, so the
// Contacts tab, the one the back office opens on, does not wait for it.
const ContactInfoForm = lazyNamed(() => import('./contact-info-form'), 'ContactInfoForm');

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
  const [chosen, setEditing] = useState<ContactInfo | 'new' | null>(null);
  // A checklist or banner link: the active record is edited with that field focused, once loaded.
  const [focusField, setFocusField] = useState<ContactField | null>(null);
  useContactFieldRequests(setFocusField);
  const active = query.data?.find((c) => c.isActive);
  const editing = focusField && active ? active : chosen;
  const current = editing === 'new' ? undefined : (editing ?? undefined);

  let body;
  if (query.isPending) body = <LoadingRows label="Loading contact information" />;
  else if (query.isError) body = <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  else if (editing !== null)
    body = (
      <Suspense fallback={<LoadingRows label="Loading the form" />}>
        <ContactInfoForm
          current={current}
          save={save}
          onDone={() => setEditing(null)}
          focusField={focusField}
          onFocused={() => {
            setEditing(editing);
            setFocusField(null);
          }}
        />
      </Suspense>
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
