import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { serviceSchema } from '#shared/schemas/service.ts';
import type { Stored } from '#shared/schemas/stored.ts';
import { useAdminMutation } from './mutation';

/** A service as the API answers it: stored services always have their place in the order. */
export type Service = Stored<typeof serviceSchema> & { displayOrder: number };

const serviceKeys = { list: ['services'] as const };

/** All services by displayOrder (inactive ones too, for an admin). */
export const servicesQuery = queryOptions({
  queryKey: serviceKeys.list,
  queryFn: () => api.get<Service[]>('/api/services'),
});

export function useSaveService() {
  return useAdminMutation<{ id?: number; version?: number; values: Record<string, unknown> }, Service>({
    mutationFn: ({ id, version, values }) =>
      id === undefined ? api.post<Service>('/api/services', values) : api.patch<Service>(`/api/services/${id}`, { ...values, version }),
    invalidate: [serviceKeys.list],
    success: (vars) => (vars.id === undefined ? 'Service created' : 'Service updated'),
    page: () => '/services/consulting',
    failure: (vars) => `Failed to ${vars.id === undefined ? 'create' : 'update'} service. Please try again.`,
  });
}

export function useDeleteService() {
  return useAdminMutation<number>({
    mutationFn: (id) => api.delete(`/api/services/${id}`),
    invalidate: [serviceKeys.list],
    success: 'Service deleted',
    page: () => '/services/consulting',
    failure: 'Failed to delete service. Please try again.',
  });
}
