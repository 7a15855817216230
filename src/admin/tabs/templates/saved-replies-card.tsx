import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { ConfirmDialog } from '#components/ui/confirm-dialog.tsx';
import { savedRepliesQuery, useDeleteSavedReply, type SavedReply } from '../../api/saved-replies';
import { EditorCard, LoadError, LoadingRows, formatDate } from '../../components/load-state';
import { lazyNamed, useOpenedOnce } from '../../components/lazy-form';
import { RowActions } from '../../components/row-actions';

// The form (react-hook-form and the shared zod schema) loads on the first New or Edit, not with the tab.
const SavedReplyDialog = lazyNamed(() => import('./saved-reply-dialog'), 'SavedReplyDialog');

/** Saved replies: reusable text the Respond dialog inserts at the cursor. */
export function SavedRepliesCard() {
  const query = useQuery(savedRepliesQuery);
  const remove = useDeleteSavedReply();
  const [editing, setEditing] = useState<SavedReply | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SavedReply | null>(null);
  const opened = useOpenedOnce(editing !== null);

  let body;
  if (query.isPending) body = <LoadingRows rows={2} label="Loading saved replies" />;
  else if (query.isError) body = <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.length === 0) body = <p className="text-sm text-muted">No saved replies yet.</p>;
  else
    body = (
      <ul className="divide-y divide-line">
        {query.data.map((r) => (
          <li key={r.id} className="flex flex-wrap items-start justify-between gap-3 py-3 text-sm">
            <div className="min-w-0 flex-1">
              <h3 className="font-semibold break-words text-ink">{r.title}</h3>
              <p className="mt-1 line-clamp-2 break-words whitespace-pre-line text-muted">{r.body}</p>
              <p className="mt-1 text-xs text-muted">Updated {formatDate(r.updatedAt)}</p>
            </div>
            <div className="flex gap-2">
              <RowActions name={r.title} onEdit={() => setEditing(r)} onDelete={() => setDeleting(r)} />
            </div>
          </li>
        ))}
      </ul>
    );

  return (
    <EditorCard
      title="Saved Replies"
      description="Text you send often (prices, lead times, next steps). In a reply, choose one and insert it at the cursor; it can still be edited there."
      actions={<Button onClick={() => setEditing('new')}>New Saved Reply</Button>}
    >
      {body}
      {opened && (
        <Suspense fallback={null}>
          <SavedReplyDialog reply={editing} onClose={() => setEditing(null)} />
        </Suspense>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete saved reply?"
        description={deleting ? `Are you sure you want to delete the saved reply “${deleting.title}”?` : ''}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      />
    </EditorCard>
  );
}
