import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { VisitPeriod, VisitsReport } from '#shared/visits.ts';

/** GET /api/admin/visits?days=N: asked again each time the tab or the period is opened. */
export const visitsQuery = (days: VisitPeriod) =>
  queryOptions({
    queryKey: ['admin', 'visits', days] as const,
    queryFn: () => api.get<VisitsReport>(`/api/admin/visits?days=${days}`),
    staleTime: 0,
  });
