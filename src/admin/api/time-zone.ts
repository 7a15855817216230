import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { BusinessTimeZone } from '#shared/schemas/business-time-zone.ts';
import { useAdminMutation } from './mutation';

const timeZoneKeys = { current: ['admin', 'time-zone'] as const };

/** GET /api/admin/time-zone: the business's time zone, in which exported dates are written. */
export const timeZoneQuery = queryOptions({
  queryKey: timeZoneKeys.current,
  queryFn: () => api.get<BusinessTimeZone>('/api/admin/time-zone'),
});

/** PUT /api/admin/time-zone. */
export function useSaveTimeZone() {
  return useAdminMutation<BusinessTimeZone, BusinessTimeZone>({
    mutationFn: (setting) => api.put<BusinessTimeZone>('/api/admin/time-zone', setting),
    invalidate: [timeZoneKeys.current],
    success: ({ timeZone }) => `Time zone set to ${timeZone}`,
    failure: 'Failed to save the time zone',
  });
}
