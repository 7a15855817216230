import { useEffect, useId, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Input } from '#components/ui/input.tsx';
import { Select } from '#components/ui/select.tsx';
import {
  BUYER_TYPES,
  BUYER_TYPE_LABELS,
  LIMITS,
  SUBMISSION_STATUSES,
  SUBMISSION_STATUS_LABELS as STATUS_LABELS,
} from '#shared/constants.ts';
import type { SubmissionsFilter } from '../../api/contact-submissions';

/** The value, once it has stopped changing for `ms` (the search asks the server after typing pauses). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Whether the server searches these words: none, or at least the shortest it takes. */
export function searchable(q: string): boolean {
  return q.trim().length === 0 || q.trim().length >= LIMITS.submissionSearchMin;
}

/** Inbox / Spam (n), status, buyer type and search: each change asks the server for the first page again. */
export function SubmissionFilters({
  filter,
  onChange,
  spamCount,
}: {
  filter: SubmissionsFilter;
  onChange: (f: SubmissionsFilter) => void;
  spamCount: number | undefined;
}) {
  const id = useId();
  const tooShort = !searchable(filter.q) && filter.q.trim() !== '';
  return (
    <div role="group" aria-label="Filter submissions" className="mb-4 flex flex-wrap items-end gap-3">
      <div className="flex gap-1" role="group" aria-label="View">
        <Button
          size="sm"
          variant={filter.view === 'inbox' ? 'primary' : 'secondary'}
          aria-pressed={filter.view === 'inbox'}
          onClick={() => onChange({ ...filter, view: 'inbox' })}
        >
          Inbox
        </Button>
        <Button
          size="sm"
          variant={filter.view === 'spam' ? 'primary' : 'secondary'}
          aria-pressed={filter.view === 'spam'}
          onClick={() => onChange({ ...filter, view: 'spam' })}
        >
          {spamCount === undefined ? 'Spam' : `Spam (${spamCount})`}
        </Button>
      </div>
      <div>
        <label htmlFor={`${id}-status`} className="mb-1 block text-sm font-medium">
          Status
        </label>
        <Select
          id={`${id}-status`}
          value={filter.status}
          onChange={(e) => onChange({ ...filter, status: e.target.value as SubmissionsFilter['status'] })}
          options={[{ value: 'all', label: 'All statuses' }, ...SUBMISSION_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))]}
        />
      </div>
      <div>
        <label htmlFor={`${id}-buyer`} className="mb-1 block text-sm font-medium">
          Buyer type
        </label>
        <Select
          id={`${id}-buyer`}
          value={filter.buyerType}
          onChange={(e) => onChange({ ...filter, buyerType: e.target.value as SubmissionsFilter['buyerType'] })}
          options={[{ value: '', label: 'All buyers' }, ...BUYER_TYPES.map((b) => ({ value: b, label: BUYER_TYPE_LABELS[b] }))]}
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
          aria-describedby={tooShort ? `${id}-search-hint` : undefined}
          onChange={(e) => onChange({ ...filter, q: e.target.value })}
          placeholder="Name, e-mail, company, phone, solicitation or message"
        />
        {tooShort && (
          <p id={`${id}-search-hint`} className="mt-1 text-sm text-muted">
            Type at least {LIMITS.submissionSearchMin} characters to search.
          </p>
        )}
      </div>
    </div>
  );
}
