import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { pastPerformanceFields } from '#shared/schemas/past-performance.ts';
import type { Stored } from '#shared/schemas/stored.ts';
import { useAdminMutation } from './mutation';

/** A past-performance entry as the API answers it. */
export type PastPerformance = Stored<typeof pastPerformanceFields>;

const PATH = '/api/admin/past-performance';
const keys = { list: ['admin', 'past-performance'] as const };

/** Every entry, inactive ones too, in display order. */
export const pastPerformanceQuery = queryOptions({
  queryKey: keys.list,
  queryFn: () => api.get<PastPerformance[]>(PATH),
});

const FAILURE = 'Failed to update past performance. Please try again.';
/** The page that lists every entry ("View on site" after a change). */
const PAGE = () => '/services/federal';

export function useSavePastPerformance() {
  return useAdminMutation<{ id?: number; version?: number; values: Record<string, unknown> }, PastPerformance>({
    mutationFn: ({ id, version, values }) =>
      id === undefined ? api.post<PastPerformance>(PATH, values) : api.patch<PastPerformance>(`${PATH}/${id}`, { ...values, version }),
    invalidate: [keys.list],
    success: (vars) => (vars.id === undefined ? 'Past performance added' : 'Past performance updated'),
    page: PAGE,
    failure: FAILURE,
  });
}

export function useDeletePastPerformance() {
  return useAdminMutation<number>({
    mutationFn: (id) => api.delete(`${PATH}/${id}`),
    invalidate: [keys.list],
    success: 'Past performance deleted',
    page: PAGE,
    failure: FAILURE,
  });
}
