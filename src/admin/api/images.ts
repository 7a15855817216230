import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { LibraryPage } from '#shared/responses.ts';
import { useAdminMutation } from './mutation';

export type { LibraryImage } from '#shared/responses.ts';

const PATH = '/api/admin/images';
const keys = { all: ['admin', 'images'] as const };

/** One page of the library, found by file name; the previous page stays shown while the next loads. */
export const imageLibraryQuery = (q: string, page: number) =>
  queryOptions({
    queryKey: [...keys.all, q, page],
    queryFn: () => api.get<LibraryPage>(`${PATH}?${new URLSearchParams({ q, page: String(page) })}`),
    placeholderData: keepPreviousData,
    // Where each image is used changes with every save elsewhere: asked again at each opening.
    staleTime: 0,
  });

/** Deletes an image nothing uses; the server refuses one in use, naming where (the toast says it). */
export function useDeleteLibraryImage() {
  return useAdminMutation<number>({
    mutationFn: (id) => api.delete(`${PATH}/${id}`),
    invalidate: [keys.all],
    success: 'Image deleted',
    failure: 'The image was not deleted',
  });
}
