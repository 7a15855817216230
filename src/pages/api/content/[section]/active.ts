import { getDb } from '../../../../server/db/client';
import { defineHandler, json } from '../../../../server/http';
import { getActiveContent } from '../../../../server/services/public-content';

export const prerender = false;

/** The active block of a section, or null when none is stored; unknown section → 404. */
export const GET = defineHandler(async ({ params }) => {
  return json(await getActiveContent(await getDb(), params.section ?? ''));
});
