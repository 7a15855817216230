import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { companyRecordSchema } from '#shared/schemas/company-profile.ts';
import type { Stored } from '#shared/schemas/stored.ts';
import { useAdminMutation } from './mutation';

export type CompanyProfile = Stored<typeof companyRecordSchema>;

const COMPANY_PROFILE = { success: 'Company profile updated', failure: 'Failed to update the company profile' };

const companyKeys = { profile: ['admin', 'company-profile'] as const };

/** GET /api/admin/company-profile: the business's identity, one record. */
export const companyProfileQuery = queryOptions({
  queryKey: companyKeys.profile,
  queryFn: () => api.get<CompanyProfile>('/api/admin/company-profile'),
});

/**
 * PATCH /api/admin/company-profile with only the changed fields and the version they were based on.
 * `what` names the part saved in the toasts (the About tab's Leadership is kept in the profile too).
 */
export function useSaveCompanyProfile(what: { success: string; failure: string } = COMPANY_PROFILE) {
  return useAdminMutation<{ version: number; values: Record<string, unknown>; page?: string }, CompanyProfile>({
    mutationFn: ({ version, values }) => api.patch<CompanyProfile>('/api/admin/company-profile', { ...values, version }),
    invalidate: [companyKeys.profile],
    page: (vars) => vars.page ?? '/services/federal',
    success: what.success,
    failure: what.failure,
  });
}
