import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { insightSchema } from '#shared/schemas/insight.ts';
import type { Stored } from '#shared/schemas/stored.ts';
import { useAdminMutation } from './mutation';

/** An insight as GET /api/admin/insights answers it. */
export type Insight = Stored<typeof insightSchema>;

const insightKeys = { list: ['admin', 'insights'] as const };

/** Every insight, drafts included (GET /api/admin/insights). */
export const insightsQuery = queryOptions({
  queryKey: insightKeys.list,
  queryFn: () => api.get<Insight[]>('/api/admin/insights'),
});

export function useSaveInsight() {
  return useAdminMutation<{ id?: number; version?: number; values: Record<string, unknown> }, Insight>({
    mutationFn: ({ id, version, values }) =>
      id === undefined
        ? api.post<Insight>('/api/admin/insights', values)
        : api.patch<Insight>(`/api/admin/insights/${id}`, { ...values, version }),
    invalidate: [insightKeys.list],
    success: (vars) => (vars.id === undefined ? 'Insight created' : 'Insight updated'),
    page: (_vars, saved) => (saved.isPublished ? `/insights/${saved.slug}` : null),
    failure: (vars) => `Failed to ${vars.id === undefined ? 'create' : 'update'} insight. Please try again.`,
  });
}

/** The table's switch (SPEC 4): publishing stamps the date now, unpublishing clears it. */
export function useToggleInsight() {
  return useAdminMutation<Insight, Insight>({
    mutationFn: (insight) =>
      api.patch<Insight>(`/api/admin/insights/${insight.id}`, {
        isPublished: !insight.isPublished,
        publicationDate: insight.isPublished ? null : new Date().toISOString(),
        version: insight.version,
      }),
    invalidate: [insightKeys.list],
    success: 'Status updated',
    page: (_vars, saved) => (saved.isPublished ? `/insights/${saved.slug}` : '/insights'),
    failure: 'Failed to update insight status. Please try again.',
  });
}

export function useDeleteInsight() {
  return useAdminMutation<number>({
    mutationFn: (id) => api.delete(`/api/admin/insights/${id}`),
    invalidate: [insightKeys.list],
    success: 'Insight deleted',
    page: () => '/insights',
    failure: 'Failed to delete insight. Please try again.',
  });
}
