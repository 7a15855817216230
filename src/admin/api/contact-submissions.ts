import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import { LIMITS, type SubmissionStatus } from '#shared/constants.ts';
import type { ContactResponseView, SubmissionView } from '#shared/responses.ts';
import { useAdminMutation } from './mutation';

export type ContactResponse = ContactResponseView;
export type Submission = SubmissionView;

const submissionKeys = { list: ['admin', 'contact-submissions'] as const };

/** GET /api/contact-submissions, polled every 30 s so new inquiries appear on their own. */
export const submissionsQuery = queryOptions({
  queryKey: submissionKeys.list,
  queryFn: () => api.poll<Submission[]>('/api/contact-submissions'),
  refetchInterval: LIMITS.submissionPollMs,
});

export function useSetSubmissionStatus() {
  return useAdminMutation<{ id: number; status: SubmissionStatus }, Submission>({
    mutationFn: ({ id, status }) => api.patch<Submission>(`/api/contact-submissions/${id}/status`, { status }),
    invalidate: [submissionKeys.list],
    success: 'Status updated',
    failure: 'Failed to update status. Please try again.',
  });
}

export function useRespond() {
  return useAdminMutation<{ id: number; message: string }, Submission>({
    mutationFn: ({ id, message }) => api.post<Submission>(`/api/contact-submissions/${id}/respond`, { message }),
    invalidate: [submissionKeys.list],
    success: 'Response sent',
    failure: 'Failed to send response. Please try again.',
  });
}

export function useSetSpam() {
  return useAdminMutation<{ id: number; isSpam: boolean }, Submission>({
    mutationFn: ({ id, isSpam }) => api.patch<Submission>(`/api/contact-submissions/${id}/spam`, { isSpam }),
    invalidate: [submissionKeys.list],
    success: (v) => (v.isSpam ? 'Moved to Spam' : 'Moved to the inbox'),
    failure: 'Failed to update status. Please try again.',
  });
}
