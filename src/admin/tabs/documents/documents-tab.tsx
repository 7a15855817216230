import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import { DOCUMENT_CATEGORY_LABELS } from '#shared/constants.ts';
import { fileSizeMb } from '#lib/format.ts';
import { documentsQuery, useDeleteDocument, type AdminDocument } from '../../api/documents';
import { EditorCard, LoadError, LoadingRows, formatDate } from '../../components/load-state';
import { RowActions } from '../../components/row-actions';
import { lazyNamed, useOpenedOnce } from '../../components/lazy-form';
import { GeneratedStatement } from './generated-statement';

// The upload and edit dialog (the form code) loads when it is first opened.
const DocumentDialog = lazyNamed(() => import('./document-dialog'), 'DocumentDialog');

/** SPEC 2.15 Documents tab: one card per document, the Upload and Edit dialogs, delete after a confirm. */
export function DocumentsTab() {
  const query = useQuery(documentsQuery);
  const remove = useDeleteDocument();
  const [editing, setEditing] = useState<AdminDocument | 'new' | null>(null);
  const opened = useOpenedOnce(editing !== null);

  const onDelete = (doc: AdminDocument) => {
    if (window.confirm('Are you sure you want to delete this document?')) remove.mutate(doc.id);
  };

  let body;
  if (query.isPending) body = <LoadingRows rows={4} label="Loading documents" />;
  else if (query.isError) body = <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.length === 0) body = <p className="text-sm text-muted">No documents uploaded</p>;
  else
    body = (
      <ul className="grid gap-4 md:grid-cols-2">
        {query.data.map((doc) => (
          <li key={doc.id} className="flex flex-col rounded-md border border-line p-4">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <h3 className="font-semibold break-words text-ink">{doc.title}</h3>
              {doc.isActive ? <Badge tone="success">Active</Badge> : <Badge tone="muted">Inactive</Badge>}
            </div>
            <p className="mt-1 text-sm font-medium text-brand-700">{DOCUMENT_CATEGORY_LABELS[doc.category] ?? doc.category}</p>
            {doc.description && <p className="mt-2 text-sm">{doc.description}</p>}
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs text-muted">
              <dt>File</dt>
              <dd className="break-all text-ink">{doc.fileName}</dd>
              <dt>Size</dt>
              <dd className="text-ink">{fileSizeMb(doc.fileSize) ?? 'Unknown size'}</dd>
              <dt>Order</dt>
              <dd className="text-ink">{doc.displayOrder}</dd>
              <dt>Created</dt>
              <dd className="text-ink">{formatDate(doc.createdAt)}</dd>
            </dl>
            <div className="mt-4 flex flex-wrap gap-2 pt-1">
              <a
                href={doc.filePath}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`Open ${doc.title} in a new tab`}
                className="inline-flex min-h-11 items-center rounded-md border border-navy-700 px-3 py-1 text-sm font-semibold text-navy-800 hover:bg-surface md:min-h-8"
              >
                Open
              </a>
              <RowActions name={doc.title} onEdit={() => setEditing(doc)} onDelete={() => onDelete(doc)} />
            </div>
          </li>
        ))}
      </ul>
    );

  return (
    <EditorCard
      title="Documents"
      description="PDF documents offered on the capabilities page; active ones are shown by display order."
      actions={<Button onClick={() => setEditing('new')}>Upload Document</Button>}
    >
      <GeneratedStatement />
      {body}
      {opened && (
        <Suspense fallback={null}>
          <DocumentDialog document={editing} onClose={() => setEditing(null)} />
        </Suspense>
      )}
    </EditorCard>
  );
}
