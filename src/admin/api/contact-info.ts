import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import { LIMITS } from '#shared/constants.ts';
import type { contactInfoSchema } from '#shared/schemas/contact-info.ts';
import type { Stored } from '#shared/schemas/stored.ts';
import { leadDeliveryKeys } from './lead-delivery';
import { useAdminMutation } from './mutation';
import { errorMessage } from '#lib/api-client.ts';

export type ContactInfo = Stored<typeof contactInfoSchema>;

const contactInfoKeys = { list: ['admin', 'contact-info'] as const };

/** GET /api/admin/contact-info, stale after 60 s as the back office expects. */
export const contactInfoQuery = queryOptions({
  queryKey: contactInfoKeys.list,
  queryFn: () => api.get<ContactInfo[]>('/api/admin/contact-info'),
  staleTime: LIMITS.adminContactInfoStaleMs,
});

export function useSaveContactInfo() {
  return useAdminMutation<{ id?: number; version?: number; values: Record<string, unknown> }, ContactInfo>({
    mutationFn: ({ id, version, values }) =>
      id === undefined
        ? api.post<ContactInfo>('/api/admin/contact-info', values)
        : api.patch<ContactInfo>(`/api/admin/contact-info/${id}`, { ...values, version }),
    // The e-mail may be who new inquiries go to (the banner and the Inquiry E-mails card).
    invalidate: [contactInfoKeys.list, leadDeliveryKeys.current],
    success: (v) => (v.id === undefined ? 'Contact information created successfully' : 'Contact information updated successfully'),
    page: () => '/contact',
    failure: (v, err) => `Failed to ${v.id === undefined ? 'create' : 'update'} contact information: ${errorMessage(err, 'Unknown error')}`,
  });
}
