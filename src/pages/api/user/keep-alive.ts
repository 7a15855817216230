import { requireUser } from '#server/auth/guard.ts';
import { extendSession, idleSecondsLeft } from '#server/auth/session.ts';
import { getDb } from '#server/db/client.ts';
import { HttpError, defineHandler, json, readJson } from '#server/http.ts';
import { IDLE_HEADER } from '#shared/session.ts';

export const prerender = false;

/**
 * 'Stay signed in': starts the idle window again now and answers how long it is. Carries no
 * payload; an empty JSON object is accepted too.
 */
export const POST = defineHandler(async ({ request, locals }) => {
  requireUser(locals);
  if (!locals.session) throw new HttpError(401, 'Authentication required');
  if (request.headers.get('content-type')) await readJson(request);
  const session = await extendSession(await getDb(), locals.session);
  const idleSeconds = idleSecondsLeft(session);
  return json({ success: true, idleSeconds }, { headers: { [IDLE_HEADER]: String(idleSeconds) } });
});
