import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed } from '#server/http.ts';
import { listLibrary } from '#server/services/image-library.ts';
import { imageLibraryQuerySchema } from '#shared/schemas/upload.ts';

export const prerender = false;

/**
 * The media library: a page of uploaded images, newest first, with where each is used (`?q=`
 * searches file names; `?url=` finds the one upload at that address).
 */
export const GET = defineHandler(async ({ url, locals }) => {
  requireAdmin(locals);
  const { q, page, url: at } = imageLibraryQuerySchema.parse(Object.fromEntries(url.searchParams));
  return json(await listLibrary(await getDb(), { query: q, page, url: at }));
});

export const ALL = methodNotAllowed(['GET']);
