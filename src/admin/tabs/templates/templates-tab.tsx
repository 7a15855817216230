import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import { ConfirmDialog } from '#components/ui/confirm-dialog.tsx';
import { emailTemplatesQuery, useDeleteTemplate, type EmailTemplate } from '../../api/email-templates';
import { EditorCard, LoadingRows, formatDate } from '../../components/load-state';
import { lazyNamed, useOpenedOnce } from '../../components/lazy-form';
import { SavedRepliesCard } from './saved-replies-card';
import { TYPE_LABELS } from './template-types';

// The template form (the form code) loads when it is first opened.
const TemplateFormDialog = lazyNamed(() => import('./template-form-dialog'), 'TemplateFormDialog');

function Swatch({ label, color }: { label: string; color: string }) {
  return (
    <div className="flex items-center gap-2">
      <span aria-hidden="true" className="h-4 w-4 rounded border border-slate-400" style={{ background: color }} />
      <span>
        {label}: <span className="font-mono">{color}</span>
      </span>
    </div>
  );
}

/** The Templates tab: a card per template, create/edit dialog with preview, delete with confirmation. */
export function TemplatesTab() {
  const query = useQuery(emailTemplatesQuery);
  const remove = useDeleteTemplate();
  const [editing, setEditing] = useState<EmailTemplate | 'new' | null>(null);
  const opened = useOpenedOnce(editing !== null);
  const [deleting, setDeleting] = useState<EmailTemplate | null>(null);

  let body;
  if (query.isPending) body = <LoadingRows rows={3} label="Loading email templates" />;
  else if (query.isError)
    body = (
      <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
        <p>Failed to load email templates</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => void query.refetch()}>
          Try Again
        </Button>
      </div>
    );
  else if (query.data.length === 0)
    body = (
      <div className="text-sm text-muted">
        <p>No email templates found</p>
        <Button className="mt-3" onClick={() => setEditing('new')}>
          Create Your First Template
        </Button>
      </div>
    );
  else
    body = (
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {query.data.map((t) => (
          <li key={t.id} className="rounded-md border border-line p-4 text-sm">
            <h3 className="font-semibold break-words text-ink">{t.name}</h3>
            <div className="mt-2 flex flex-wrap gap-1">
              <Badge>{TYPE_LABELS[t.templateType]}</Badge>
              {t.isActive && <Badge tone="success">Active</Badge>}
            </div>
            <div className="mt-3 space-y-1">
              <Swatch label="Header" color={t.headerBgColor} />
              <Swatch label="Accent" color={t.accentColor} />
              <p className="break-words">
                Signature: {t.signatureName}
                {t.templateType === 'contact_response' && (
                  <span className="text-muted"> (replies sign with the sender&rsquo;s own signature)</span>
                )}
              </p>
              <p className="text-muted">Updated {formatDate(t.updatedAt)}</p>
            </div>
            <div className="mt-3 flex gap-2">
              <Button size="sm" variant="secondary" onClick={() => setEditing(t)} aria-label={`Edit ${t.name}`}>
                Edit
              </Button>
              <Button size="sm" variant="destructive" onClick={() => setDeleting(t)} aria-label={`Delete ${t.name}`}>
                Delete
              </Button>
            </div>
          </li>
        ))}
      </ul>
    );

  return (
    <div className="space-y-6">
      <EditorCard
        title="Email Templates"
        description="The look of the e-mails sent to the staff about a new inquiry and to visitors with a reply. One template of each type is active at a time; without one, a built-in default is used."
        actions={<Button onClick={() => setEditing('new')}>New Template</Button>}
      >
        {body}
        {opened && (
          <Suspense fallback={null}>
            <TemplateFormDialog template={editing} onClose={() => setEditing(null)} />
          </Suspense>
        )}
        <ConfirmDialog
          open={deleting !== null}
          onOpenChange={(open) => !open && setDeleting(null)}
          title="Delete email template?"
          description="Are you sure you want to delete this email template?"
          busy={remove.isPending}
          onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
        />
      </EditorCard>
      <SavedRepliesCard />
    </div>
  );
}
