import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { ReplySetup } from '#shared/email/render.ts';
import type { savedReplySchema, SavedReplyValues } from '#shared/schemas/saved-reply.ts';
import type { Stored } from '#shared/schemas/stored.ts';
import { useAdminMutation } from './mutation';

export type SavedReply = Stored<typeof savedReplySchema>;

const keys = { list: ['admin', 'saved-replies'] as const, setup: ['admin', 'reply-setup'] as const };

export const savedRepliesQuery = queryOptions({
  queryKey: keys.list,
  queryFn: () => api.get<SavedReply[]>('/api/admin/saved-replies'),
});

/**
 * What a reply renders with. Read afresh each time a dialog opens (staleTime 0): a template,
 * profile or contact change made a moment ago shows in the next preview.
 */
export const replySetupQuery = queryOptions({
  queryKey: keys.setup,
  queryFn: () => api.get<ReplySetup>('/api/admin/reply-setup'),
  staleTime: 0,
});

export function useSaveSavedReply() {
  return useAdminMutation<{ id?: number; version?: number; values: SavedReplyValues }, SavedReply>({
    mutationFn: ({ id, version, values }) =>
      id === undefined
        ? api.post<SavedReply>('/api/admin/saved-replies', values)
        : api.patch<SavedReply>(`/api/admin/saved-replies/${id}`, { ...values, version }),
    invalidate: [keys.list],
    success: (v) => (v.id === undefined ? 'Saved reply created' : 'Saved reply updated'),
    failure: (v) => (v.id === undefined ? 'Failed to create saved reply' : 'Failed to update saved reply'),
  });
}

export function useDeleteSavedReply() {
  return useAdminMutation<number>({
    mutationFn: (id) => api.delete(`/api/admin/saved-replies/${id}`),
    invalidate: [keys.list],
    success: 'Saved reply deleted',
    failure: 'Failed to delete saved reply',
  });
}
