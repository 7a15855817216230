import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';
import { getActiveContent } from '#server/content/public-content.ts';

export const prerender = false;

/** The active block of a section, or null when none is stored; unknown section → 404. */
export const GET = defineHandler(async ({ params }) => {
  return json(await getActiveContent(await getDb(), params.section ?? ''));
});
