import { queryOptions } from '@tanstack/react-query';
import { useMutation } from '@tanstack/react-query';
import { useToast } from '#components/ui/toast.tsx';
import { api, errorMessage } from '#lib/api-client.ts';
import type { emailTemplateSchema, EmailTemplateValues } from '#shared/schemas/email-template.ts';
import type { Stored } from '#shared/schemas/stored.ts';
import { useAdminMutation } from './mutation';

export type EmailTemplate = Stored<typeof emailTemplateSchema>;

const templateKeys = { list: ['admin', 'email-templates'] as const };

export const emailTemplatesQuery = queryOptions({
  queryKey: templateKeys.list,
  queryFn: () => api.get<EmailTemplate[]>('/api/admin/email-templates'),
});

export function useSaveTemplate() {
  return useAdminMutation<{ id?: number; version?: number; values: Record<string, unknown> }, EmailTemplate>({
    mutationFn: ({ id, version, values }) =>
      id === undefined
        ? api.post<EmailTemplate>('/api/admin/email-templates', values)
        : api.patch<EmailTemplate>(`/api/admin/email-templates/${id}`, { ...values, version }),
    invalidate: [templateKeys.list],
    success: (v) => (v.id === undefined ? 'Email template created successfully' : 'Email template updated successfully'),
    failure: (v) => (v.id === undefined ? 'Failed to create email template' : 'Failed to update email template'),
  });
}

export function useDeleteTemplate() {
  return useAdminMutation<number>({
    mutationFn: (id) => api.delete(`/api/admin/email-templates/${id}`),
    invalidate: [templateKeys.list],
    success: 'Email template deleted successfully',
    failure: 'Failed to delete email template',
  });
}

/** 'Send test e-mail': no list changes, so a plain mutation with its own toasts. */
export function useSendTestEmail() {
  const toast = useToast();
  return useMutation({
    mutationFn: (template: EmailTemplateValues) => api.post<{ to: string }>('/api/admin/email-templates/test', { template }),
    onSuccess: ({ to }) => toast({ title: 'Test e-mail sent', description: `A sample message with this template is on its way to ${to}.` }),
    onError: (err) =>
      toast({ title: 'Failed to send test e-mail', description: errorMessage(err, '') || undefined, variant: 'destructive' }),
  });
}
