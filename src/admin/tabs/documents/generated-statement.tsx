import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ConfirmDialog } from '#components/ui/confirm-dialog.tsx';
import { Switch } from '#components/ui/switch.tsx';
import { capabilityStatementQuery, useSetGeneratedStatement } from '../../api/documents';
import { LoadError } from '../../components/load-state';

const LINK =
  'inline-flex min-h-11 items-center rounded-md border border-navy-700 px-3 py-1 text-sm font-semibold text-navy-800 hover:bg-surface md:min-h-8';

/**
 * The capability statement the publisher writes from the site's data: "Use generated statement"
 * (off: the site offers the uploaded capability statement, if one is active: turning it off
 * without one asks first) and links to the current one.
 */
export function GeneratedStatement() {
  const query = useQuery(capabilityStatementQuery);
  const set = useSetGeneratedStatement();
  const labelId = useId();
  const hintId = useId();
  // Off with no uploaded statement active leaves buyers nothing to download: asked first.
  const [confirmOff, setConfirmOff] = useState(false);
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  const state = query.data;
  return (
    <section aria-labelledby={labelId} className="mb-6 rounded-md border border-line bg-surface p-4" data-testid="generated-statement">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h3 id={labelId} className="font-semibold text-ink">
            Use generated statement
          </h3>
          <p id={hintId} className="mt-1 text-sm">
            A one-page PDF written from the Company tab, the services, the “Why Choose Us” cards and the contact details, made again
            whenever they change. Off: the site offers the active uploaded capability statement.
          </p>
        </div>
        <Switch
          checked={state?.inUse ?? false}
          disabled={!state || set.isPending}
          onCheckedChange={(on) => (on || state?.uploadedActive ? set.mutate(on) : setConfirmOff(true))}
          aria-labelledby={labelId}
          aria-describedby={hintId}
        />
      </div>
      {state && (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <a
            href={state.url}
            target="_blank"
            rel="noopener"
            className={LINK}
            aria-label="Open the generated capability statement (PDF, new tab)"
          >
            Open
          </a>
          <a href={state.url} download className={LINK} aria-label="Download the generated capability statement">
            Download
          </a>
          <span className="text-sm text-muted">{state.inUse ? 'Offered on the site' : 'Not offered on the site'}</span>
        </div>
      )}
      <ConfirmDialog
        open={confirmOff}
        onOpenChange={setConfirmOff}
        title="Turn off the generated statement?"
        description="Buyers will have no capability statement to download: no uploaded capability statement is active. Upload one in Documents first, or turn it off anyway."
        confirmLabel="Turn it off"
        busyLabel="Turning off…"
        busy={set.isPending}
        onConfirm={() => set.mutate(false, { onSuccess: () => setConfirmOff(false) })}
      />
    </section>
  );
}
