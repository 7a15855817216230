import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Dialog } from '#components/ui/dialog.tsx';
import { auditQuery, type AuditEntry } from '../api/audit';
import { LoadError, LoadingRows, formatDateTime } from './load-state';

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function Change({ entry }: { entry: AuditEntry }) {
  const keys = Object.keys(entry.after ?? entry.before ?? {});
  if (entry.action !== 'update') {
    const row = entry.after ?? entry.before ?? {};
    const name = row.title ?? row.buttonText ?? row.slug;
    return name ? <span>“{show(name)}”</span> : null;
  }
  return (
    <ul className="mt-1 space-y-0.5">
      {keys.map((k) => (
        <li key={k} className="break-words">
          <span className="font-medium">{k}</span>: {show(entry.before?.[k])} → {show(entry.after?.[k])}
        </li>
      ))}
    </ul>
  );
}

function ActivityList() {
  const query = useQuery(auditQuery);
  if (query.isPending) return <LoadingRows rows={5} label="Loading activity" />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <p className="text-sm text-muted">No changes recorded yet.</p>;
  return (
    <ol className="divide-y divide-line text-sm">
      {query.data.map((e) => (
        <li key={e.id} className="py-2">
          <p>
            <span className="font-semibold">{e.actorName ?? 'Someone'}</span> {e.action}d {e.entity}
            {e.entityId ? ` #${e.entityId}` : ''} <span className="text-muted">· {formatDateTime(e.createdAt)}</span>
          </p>
          <div className="text-muted">
            <Change entry={e} />
          </div>
        </li>
      ))}
    </ol>
  );
}

/** The latest changes by any administrator (who, what, when, before → after). */
export function ActivityButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        Activity
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title="Activity" description="The latest changes made in the back office.">
        {open && <ActivityList />}
      </Dialog>
    </>
  );
}
