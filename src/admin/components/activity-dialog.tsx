import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Dialog } from '#components/ui/dialog.tsx';
import { auditQuery } from '../api/audit';
import { activitySentences } from './activity-text';
import { LoadError, LoadingRows, formatDateTime } from './load-state';

function ActivityList() {
  const query = useQuery(auditQuery);
  if (query.isPending) return <LoadingRows rows={5} label="Loading activity" />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <p className="text-sm text-muted">No changes recorded yet.</p>;
  return (
    <ol className="divide-y divide-line text-sm">
      {query.data.map((e) => (
        <li key={e.id} className="py-2">
          <p className="text-xs text-muted">
            <span className="font-semibold text-ink">{e.actorName ?? 'Someone'}</span> · {formatDateTime(e.createdAt)}
          </p>
          <ul className="mt-0.5 space-y-0.5">
            {activitySentences(e).map((sentence, i) => (
              <li key={i}>{sentence}</li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

/** The latest changes by any administrator: who, when, and what in sentences. */
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
