import { withCookies } from '#server/auth/cookies.ts';
import { endSession } from '#server/auth/session.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, readJson } from '#server/http.ts';

export const prerender = false;

/**
 * Ends the session on the server and clears the session and hint cookies. The call carries no
 * payload, so a POST without a body (or without a JSON type) is fine; the Origin check of the
 * middleware still applies.
 */
export const POST = defineHandler(async ({ request }) => {
  if (request.headers.get('content-type')) await readJson(request);
  const cookies = await endSession(await getDb(), request);
  return withCookies(json({ success: true, message: 'Logged out' }), cookies);
});
