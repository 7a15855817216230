import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import { LIMITS, type BuyerType, type SubmissionStatus } from '#shared/constants.ts';
import type { ContactResponseView, SubmissionCounts, SubmissionView } from '#shared/responses.ts';
import { useAdminMutation } from './mutation';

export type ContactResponse = ContactResponseView;
export type Submission = SubmissionView;

/** The tab's filters, as the list and the CSV export take them (the server runs them). */
export interface SubmissionsFilter {
  view: 'inbox' | 'spam';
  status: 'all' | SubmissionStatus;
  buyerType: '' | BuyerType;
  q: string;
}

const submissionKeys = {
  all: ['admin', 'contact-submissions'] as const,
  list: (f: SubmissionsFilter) => [...submissionKeys.all, 'list', f] as const,
  counts: ['admin', 'contact-submissions', 'counts'] as const,
  one: (id: number) => [...submissionKeys.all, 'one', id] as const,
};

/** The filters as query parameters (empty ones left out). */
export function filterParams(f: SubmissionsFilter): URLSearchParams {
  const params = new URLSearchParams({ view: f.view, status: f.status });
  if (f.buyerType) params.set('buyerType', f.buyerType);
  if (f.q.trim()) params.set('q', f.q.trim());
  return params;
}

/**
 * GET /api/contact-submissions, one page at a time (each next page from the `Link` header);
 * polled every 30 s with the last ETag, so an unchanged page costs a 304.
 */
export const submissionsQuery = (f: SubmissionsFilter) =>
  infiniteQueryOptions({
    queryKey: submissionKeys.list(f),
    queryFn: ({ pageParam }) => api.pollPage<Submission>(pageParam),
    initialPageParam: `/api/contact-submissions?${filterParams(f)}`,
    getNextPageParam: (last) => last.next ?? undefined,
    refetchInterval: LIMITS.submissionPollMs,
  });

/** GET /api/contact-submissions/counts: the tab's "N new inquiries", Spam (n) and the tab badge. */
export const submissionCountsQuery = queryOptions({
  queryKey: submissionKeys.counts,
  queryFn: () => api.poll<SubmissionCounts>('/api/contact-submissions/counts'),
  refetchInterval: LIMITS.submissionPollMs,
});

/** GET /api/contact-submissions/{id}: the Respond dialog's submission, polled while it is open (its replies' delivery). */
export const submissionQuery = (id: number) =>
  queryOptions({
    queryKey: submissionKeys.one(id),
    queryFn: () => api.poll<Submission>(`/api/contact-submissions/${id}`),
    refetchInterval: LIMITS.submissionPollMs,
  });

export function useSetSubmissionStatus() {
  return useAdminMutation<{ id: number; status: SubmissionStatus }, Submission>({
    mutationFn: ({ id, status }) => api.patch<Submission>(`/api/contact-submissions/${id}/status`, { status }),
    invalidate: [submissionKeys.all],
    success: 'Status updated',
    failure: 'Failed to update status. Please try again.',
  });
}

export function useRespond() {
  return useAdminMutation<{ id: number; message: string }, Submission>({
    mutationFn: ({ id, message }) => api.post<Submission>(`/api/contact-submissions/${id}/respond`, { message }),
    invalidate: [submissionKeys.all],
    success: 'Response sent',
    failure: 'Failed to send response. Please try again.',
  });
}

export function useSetSpam() {
  return useAdminMutation<{ id: number; isSpam: boolean }, Submission>({
    mutationFn: ({ id, isSpam }) => api.patch<Submission>(`/api/contact-submissions/${id}/spam`, { isSpam }),
    invalidate: [submissionKeys.all],
    success: (v) => (v.isSpam ? 'Moved to Spam' : 'Moved to the inbox'),
    failure: 'Failed to update status. Please try again.',
  });
}
