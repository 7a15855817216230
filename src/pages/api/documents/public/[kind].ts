import { getDb } from '#server/db/client.ts';
import { HttpError, defineHandler, json } from '#server/http.ts';
import { getPublicDocument } from '#server/content/public-content.ts';

export const prerender = false;

/** The public capability statement or OEM onboarding kit (`{ filePath, ... }`), or null. */
export const GET = defineHandler(async ({ params }) => {
  const kind = params.kind;
  if (kind !== 'capability' && kind !== 'onboarding') throw new HttpError(404, 'Unknown public document');
  return json(await getPublicDocument(await getDb(), kind));
});
