import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { ConfirmDialog } from '#components/ui/confirm-dialog.tsx';
import { useToast } from '#components/ui/toast.tsx';
import { errorMessage } from '#lib/api-client.ts';
import { identitiesQuery, useUnlinkIdentity, type LinkedIdentity } from './account-api';

const formatDate = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Linked Sign-ins card: the Google or Microsoft accounts that sign into this one. Each was linked
 * with this account's password; removing one stops it signing in (the account's address is told).
 */
export function LinkedSignInsCard() {
  const toast = useToast();
  const identities = useQuery(identitiesQuery);
  const unlink = useUnlinkIdentity();
  const [removing, setRemoving] = useState<LinkedIdentity | null>(null);

  return (
    <section className="card" aria-labelledby="linked-title">
      <h2 id="linked-title" className="text-lg font-bold text-navy-900">
        Linked Sign-ins
      </h2>
      <p className="mt-1 text-sm text-muted">Provider accounts that can sign into this account. Each was linked with its password.</p>
      <div className="mt-5">
        {identities.isPending && <p role="status">Loading...</p>}
        {identities.isError && <p className="text-danger">Error: {errorMessage(identities.error, 'Unknown error')}</p>}
        {identities.data?.length === 0 && <p>No provider sign-in is linked.</p>}
        {identities.data && identities.data.length > 0 && (
          <ul className="flex flex-col gap-3">
            {identities.data.map((identity) => (
              <li key={identity.id} className="flex flex-wrap items-center justify-between gap-3">
                <span>
                  <span className="font-semibold text-ink">{identity.name}</span>{' '}
                  <span className="text-sm text-muted">linked {formatDate(identity.linkedAt)}</span>
                </span>
                <Button
                  size="sm"
                  variant="destructive"
                  onClick={() => setRemoving(identity)}
                  aria-label={`Remove the ${identity.name} sign-in`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Remove the ${removing?.name ?? ''} sign-in?`}
        description={`That ${removing?.name ?? ''} account will no longer sign into this one. Signing in with it again asks for this account's password.`}
        confirmLabel="Remove"
        busy={unlink.isPending}
        onConfirm={() =>
          removing &&
          unlink.mutate(removing.id, {
            onSuccess: () => {
              toast({ title: 'Linked sign-in removed', description: `${removing.name} no longer signs into this account.` });
              setRemoving(null);
            },
            onError: (err) => toast({ variant: 'destructive', title: 'Remove failed', description: errorMessage(err, 'Failed to remove') }),
          })
        }
      />
    </section>
  );
}
