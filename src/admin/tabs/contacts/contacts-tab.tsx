import { useQuery } from '@tanstack/react-query';
import { Suspense, useId, useMemo, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Input } from '#components/ui/input.tsx';
import { Select } from '#components/ui/select.tsx';
import { Skeleton } from '#components/ui/skeleton.tsx';
import { SUBMISSION_STATUSES } from '#shared/constants.ts';
import { countNew, filterLeads } from '#shared/leads.ts';
import type { SubmissionFilter } from '#shared/schemas/contact-submission.ts';
import { submissionsQuery, type Submission } from '../../api/contact-submissions';
import { lazyNamed, useOpenedOnce } from '../../components/lazy-form';
import { EditorCard } from '../../components/load-state';
import { ContactInfoEditor } from './contact-info-editor';
import { STATUS_LABELS, SubmissionsTable } from './submissions-table';
import { TestInquiryCard } from './test-inquiry-card';
import { errorMessage } from '#lib/api-client.ts';

// The reply form (react-hook-form and the shared zod schema) loads with the first reply, so the
// Contacts tab, the one the back office opens on, does not wait for it.
const RespondDialog = lazyNamed(() => import('./respond-dialog'), 'RespondDialog');

/** The Contacts tab: the submissions (with the sales team's filters and export), then the business contact details. */
export function ContactsTab() {
  return (
    <div className="space-y-6">
      <SubmissionsCard />
      <ContactInfoEditor />
      <TestInquiryCard />
    </div>
  );
}

function SubmissionsCard() {
  const id = useId();
  const query = useQuery(submissionsQuery);
  const [filter, setFilter] = useState<SubmissionFilter>({ view: 'inbox', status: 'all', q: '' });
  const [responding, setResponding] = useState<number | null>(null);
  const replied = useOpenedOnce(responding !== null);
  const all = useMemo(() => query.data ?? [], [query.data]);
  const rows = useMemo(() => filterLeads(all, filter), [all, filter]);
  const newCount = countNew(all);
  const spamCount = all.filter((s) => s.isSpam).length;
  // The dialog follows the polled list, so a reply's delivery state updates while it is open.
  const current: Submission | null = all.find((s) => s.id === responding) ?? null;
  const exportHref = `/api/contact-submissions/export?${new URLSearchParams({ view: filter.view, status: filter.status, q: filter.q })}`;

  let body;
  if (query.isPending)
    body = (
      <div aria-busy="true" aria-label="Loading submissions" className="space-y-3">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  else if (query.isError)
    body = (
      <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
        <p>Error loading submissions: {errorMessage(query.error, 'Unknown error')}</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => void query.refetch()}>
          Try Again
        </Button>
      </div>
    );
  else if (all.length === 0) body = <p className="text-sm text-muted">No contact form submissions yet.</p>;
  else if (rows.length === 0)
    body = (
      <p className="text-sm text-muted">
        {filter.view === 'spam' && filter.status === 'all' && !filter.q ? 'No suspected spam.' : 'No submissions match these filters.'}
      </p>
    );
  else body = <SubmissionsTable rows={rows} spamView={filter.view === 'spam'} onRespond={(s) => setResponding(s.id)} />;

  return (
    <EditorCard
      title="Contact Submissions"
      description="Replies are promised within 24 hours on business days; inquiries past that without a reply are marked Overdue. The list refreshes every 30 seconds."
      actions={
        <a
          href={exportHref}
          download
          className="inline-flex min-h-11 items-center rounded-md border border-navy-700 bg-white px-4 py-2 text-sm font-semibold text-navy-800 hover:bg-surface md:min-h-10"
        >
          Export CSV
        </a>
      }
    >
      <p className="mb-4 text-sm font-semibold text-ink" aria-live="polite">
        {query.isSuccess ? (newCount === 1 ? '1 new inquiry' : `${newCount} new inquiries`) : '\u00a0'}
      </p>
      <div role="group" aria-label="Filter submissions" className="mb-4 flex flex-wrap items-end gap-3">
        <div className="flex gap-1" role="group" aria-label="View">
          <Button
            size="sm"
            variant={filter.view === 'inbox' ? 'primary' : 'secondary'}
            aria-pressed={filter.view === 'inbox'}
            onClick={() => setFilter({ ...filter, view: 'inbox' })}
          >
            Inbox
          </Button>
          <Button
            size="sm"
            variant={filter.view === 'spam' ? 'primary' : 'secondary'}
            aria-pressed={filter.view === 'spam'}
            onClick={() => setFilter({ ...filter, view: 'spam' })}
          >
            Spam ({spamCount})
          </Button>
        </div>
        <div>
          <label htmlFor={`${id}-status`} className="mb-1 block text-sm font-medium">
            Status
          </label>
          <Select
            id={`${id}-status`}
            value={filter.status}
            onChange={(e) => setFilter({ ...filter, status: e.target.value as SubmissionFilter['status'] })}
            options={[{ value: 'all', label: 'All statuses' }, ...SUBMISSION_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))]}
          />
        </div>
        <div className="min-w-[12rem] flex-1">
          <label htmlFor={`${id}-search`} className="mb-1 block text-sm font-medium">
            Search submissions
          </label>
          <Input
            id={`${id}-search`}
            type="search"
            maxLength={200}
            value={filter.q}
            onChange={(e) => setFilter({ ...filter, q: e.target.value })}
            placeholder="Name, e-mail, company, phone or message"
          />
        </div>
      </div>
      {body}
      {/* Mounted from the first reply on, so later ones open and close as a mounted dialog does. */}
      {replied && (
        <Suspense fallback={null}>
          <RespondDialog submission={current} onClose={() => setResponding(null)} />
        </Suspense>
      )}
    </EditorCard>
  );
}
