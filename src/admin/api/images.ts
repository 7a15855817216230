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

/**
 * The original file name of the upload at `url` (null for an address that is no upload of ours, such
 * as a pasted link): a picker shows it rather than the stored name, which is a hash of the content.
 */
export const uploadNameQuery = (url: string) =>
  queryOptions({
    queryKey: [...keys.all, 'name', url],
    queryFn: async () => (await api.get<LibraryPage>(`${PATH}?${new URLSearchParams({ url })}`)).images[0]?.name ?? null,
    staleTime: 60_000,
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
