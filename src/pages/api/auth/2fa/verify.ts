import { CHALLENGE_COOKIE, challengeCookie, isSecureRequest, readCookie, withCookies } from '#server/auth/cookies.ts';
import { knownDevice } from '#server/auth/device.ts';
import { countAttempt } from '#server/auth/limits.ts';
import { issueSession } from '#server/auth/session.ts';
import { verifyChallenge } from '#server/auth/two-factor.ts';
import { getDb } from '#server/db/client.ts';
import { env } from '#server/env.ts';
import { defineHandler, json, readJson } from '#server/http.ts';
import { verifyCodeSchema } from '#shared/schemas/auth.ts';

export const prerender = false;

/** The code step; only valid with the pending challenge cookie from the password step. */
export const POST = defineHandler(async ({ request, locals }) => {
  const { username, token } = verifyCodeSchema.parse(await readJson(request));
  const db = await getDb();
  const refund = await countAttempt(db, '2fa', locals.clientIp);
  const verified = await verifyChallenge(db, readCookie(request, CHALLENGE_COOKIE), username, token, (userId) =>
    knownDevice(request, userId),
  );
  await refund();
  const { cookies, user } = await issueSession(db, request, verified.id, locals.clientIp);
  const cleared = challengeCookie(null, isSecureRequest(request, env().SITE_URL));
  return withCookies(json({ success: true, message: 'Verification successful', user }), [...cookies, cleared]);
});
