import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { errorMessage } from '#lib/api-client.ts';
import {
  filterParams,
  submissionCountsQuery,
  submissionQuery,
  submissionsQuery,
  type Submission,
  type SubmissionsFilter,
} from '../../api/contact-submissions';
import { lazyNamed, useOpenedOnce } from '../../components/lazy-form';
import { EditorCard, LoadingRows } from '../../components/load-state';
import { SubmissionFilters, searchable, useDebounced } from './submission-filters';
import { SubmissionsTable } from './submissions-table';

// The reply form (react-hook-form and the shared zod schema) loads with the first reply, so the
// Contacts tab, the one the back office opens on, does not wait for it.
const RespondDialog = lazyNamed(() => import('./respond-dialog'), 'RespondDialog');
// The time zone form (react-hook-form and its zod schema) loads after the list: the tab's first open stays small.
const TimeZoneForm = lazyNamed(() => import('./time-zone-form'), 'TimeZoneForm');

const SEARCH_DELAY_MS = 300;
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The submissions, a page at a time from the server (filters and search run there), with the
 * numbers from one small counts query, the export of the current filter and the Respond dialog.
 */
export function SubmissionsCard() {
  const [typed, setTyped] = useState<SubmissionsFilter>({ view: 'inbox', status: 'all', buyerType: '', q: '' });
  const q = useDebounced(typed.q, SEARCH_DELAY_MS);
  // One letter is not sent (the server refuses it): the list stays as it was, and a hint says why.
  const filter = { ...typed, q: searchable(q) ? q : '' };
  // The rows of the previous filter stay while the next ones load, instead of flashing skeletons.
  const list = useInfiniteQuery({ ...submissionsQuery(filter), placeholderData: keepPreviousData });
  const counts = useQuery(submissionCountsQuery);
  const [responding, setResponding] = useState<number | null>(null);
  const replied = useOpenedOnce(responding !== null);
  const one = useQuery({ ...submissionQuery(responding ?? 0), enabled: responding !== null });
  const rows = list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const capped = list.data?.pages[0]?.capped ?? false;
  // The dialog has its own source, so it works whatever page the row is on; the row shows until it answers.
  const current: Submission | null = responding === null ? null : (one.data ?? rows.find((s) => s.id === responding) ?? null);
  const everything = counts.data ? counts.data.inbox.total + counts.data.spam : undefined;

  let body;
  if (list.isPending) body = <LoadingRows rows={4} label="Loading submissions" />;
  else if (list.isError && !list.data)
    body = (
      <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
        <p>Error loading submissions: {errorMessage(list.error, 'Unknown error')}</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => void list.refetch()}>
          Try Again
        </Button>
      </div>
    );
  else if (rows.length === 0 && everything === 0) body = <p className="text-sm text-muted">No contact form submissions yet.</p>;
  else if (rows.length === 0)
    body = (
      <p className="text-sm text-muted">
        {filter.view === 'spam' && filter.status === 'all' && !filter.q && !filter.buyerType
          ? 'No suspected spam.'
          : 'No submissions match these filters.'}
      </p>
    );
  else
    body = (
      <>
        <SubmissionsTable rows={rows} spamView={filter.view === 'spam'} onRespond={(s) => setResponding(s.id)} />
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <p className="text-sm text-muted" aria-live="polite">
            Showing {rows.length.toLocaleString('en-US')} of{' '}
            {capped ? `more than ${plural(total, 'submission', 'submissions')}` : plural(total, 'submission', 'submissions')}
          </p>
          {list.hasNextPage && (
            // While a new filter's first page loads, the rows shown are the previous filter's: their
            // next page is not the one to ask for.
            <Button
              variant="secondary"
              size="sm"
              disabled={list.isFetchingNextPage || list.isPlaceholderData}
              onClick={() => void list.fetchNextPage()}
            >
              {list.isFetchingNextPage ? 'Loading more...' : 'Load more'}
            </Button>
          )}
        </div>
      </>
    );

  return (
    <EditorCard
      title="Contact Submissions"
      description="Replies are promised within 24 hours on business days; inquiries past that without a reply are marked Overdue. The list refreshes every 30 seconds."
      actions={
        <a
          href={`/api/contact-submissions/export?${filterParams(filter)}`}
          download
          className="inline-flex min-h-11 items-center rounded-md border border-navy-700 bg-white px-4 py-2 text-sm font-semibold text-navy-800 hover:bg-surface md:min-h-10"
        >
          Export CSV
        </a>
      }
    >
      <p className="mb-4 text-sm font-semibold text-ink" aria-live="polite">
        {counts.data ? plural(counts.data.new, 'new inquiry', 'new inquiries') : '\u00a0'}
      </p>
      <SubmissionFilters filter={typed} onChange={setTyped} spamCount={counts.data?.spam} />
      <div aria-busy={list.isFetching && list.isPlaceholderData}>{body}</div>
      <Suspense fallback={<LoadingRows rows={1} label="Loading the time zone" />}>
        <TimeZoneForm />
      </Suspense>
      {/* Mounted from the first reply on, so later ones open and close as a mounted dialog does. */}
      {replied && (
        <Suspense fallback={null}>
          <RespondDialog submission={current} onClose={() => setResponding(null)} />
        </Suspense>
      )}
    </EditorCard>
  );
}
