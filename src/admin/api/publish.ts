import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '#lib/api-client.ts';
import type { PublishStatus } from '#shared/responses.ts';

export const publishKeys = { status: ['admin', 'publish', 'status'] as const, changed: ['admin', 'publish', 'changed'] as const };

/**
 * The public page the last save changed, and when the site was last live before that save: once a
 * newer publish is live, the header links to the page ("View on site").
 */
export interface ChangedPage {
  path: string;
  liveBefore: string | null;
}

/** Kept in the query cache only (set by a save, read by the header); nothing is fetched. */
export const changedPageQuery = queryOptions({
  queryKey: publishKeys.changed,
  queryFn: (): ChangedPage | null => null,
  staleTime: Infinity,
});

/**
 * GET /api/admin/publish/status: polled every 2 s while a publish is queued or building, every
 * 30 s otherwise, every 5 s after a failed poll. A server without the endpoint (404) yields null,
 * and polling stops.
 */
export const publishStatusQuery = queryOptions({
  queryKey: publishKeys.status,
  queryFn: async (): Promise<PublishStatus | null> => {
    try {
      return await api.poll<PublishStatus>('/api/admin/publish/status');
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  },
  staleTime: 0,
  refetchInterval: (query) => {
    const data = query.state.data;
    if (data === null) return false;
    // Unreachable: ask again soon, so the header says so only while it lasts.
    if (query.state.status === 'error') return 5000;
    return data?.state === 'queued' || data?.state === 'building' ? 2000 : 30_000;
  },
});

export function useRetryPublish() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/admin/publish'),
    onSettled: () => qc.invalidateQueries({ queryKey: publishKeys.status }),
  });
}
