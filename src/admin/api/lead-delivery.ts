import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { LeadDelivery, TestInquiryResult } from '#shared/lead-delivery.ts';

export const leadDeliveryKeys = { current: ['admin', 'lead-delivery'] as const };

/**
 * GET /api/admin/lead-delivery: who new inquiries are e-mailed to. Checked again every minute
 * (an operator may fix the configuration meanwhile) without keeping the session from going idle.
 */
export const leadDeliveryQuery = queryOptions({
  queryKey: leadDeliveryKeys.current,
  queryFn: () => api.poll<LeadDelivery>('/api/admin/lead-delivery'),
  staleTime: 30_000,
  refetchInterval: 60_000,
});

/** POST /api/admin/lead-delivery/test: the outcome per recipient is shown where it was asked for. */
export function useSendTestInquiry() {
  return useMutation({ mutationFn: () => api.post<TestInquiryResult>('/api/admin/lead-delivery/test') });
}
