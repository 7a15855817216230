import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { FeatureSection } from '#shared/constants.ts';
import type { featureSchema } from '#shared/schemas/feature.ts';
import type { Stored } from '#shared/schemas/stored.ts';
import { useAdminMutation } from './mutation';

/** A home or about card as the API answers it. */
export type Feature = Stored<typeof featureSchema>;

const featureKeys = { list: (section: FeatureSection) => ['features', section] as const };

/** Where each section's cards are listed (all of them for an admin) and shown. */
const LIST_URL: Record<FeatureSection, string> = {
  home: '/api/features',
  about: '/api/about-features',
  federal: '/api/federal-features',
};
const PAGE: Record<FeatureSection, string> = { home: '/', about: '/about', federal: '/services/federal' };

/** A section's cards, all of them (the administrator's view). */
export function featuresQuery(section: FeatureSection) {
  return queryOptions({
    queryKey: featureKeys.list(section),
    queryFn: () => api.get<Feature[]>(LIST_URL[section]),
  });
}

const FAILURE = 'Failed to update features content. Please try again.';

export function useSaveFeature(section: FeatureSection) {
  return useAdminMutation<{ id?: number; version?: number; values: Record<string, unknown> }, Feature>({
    mutationFn: ({ id, version, values }) =>
      id === undefined
        ? api.post<Feature>('/api/features', { ...values, section })
        : api.patch<Feature>(`/api/features/${id}`, { ...values, section, version }),
    invalidate: [featureKeys.list(section)],
    success: (vars) => (vars.id === undefined ? 'Feature created' : 'Feature updated'),
    page: () => PAGE[section],
    failure: FAILURE,
  });
}

export function useDeleteFeature(section: FeatureSection) {
  return useAdminMutation<number>({
    mutationFn: (id) => api.delete(`/api/features/${id}`),
    invalidate: [featureKeys.list(section)],
    success: 'Feature deleted',
    page: () => PAGE[section],
    failure: FAILURE,
  });
}
