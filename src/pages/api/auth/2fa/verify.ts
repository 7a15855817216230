import { CHALLENGE_COOKIE, challengeCookie, isSecureRequest, readCookie, withCookies } from '../../../../server/auth/cookies';
import { countAttempt } from '../../../../server/auth/limits';
import { issueSession } from '../../../../server/auth/session';
import { verifyChallenge } from '../../../../server/auth/two-factor';
import { getDb } from '../../../../server/db/client';
import { env } from '../../../../server/env';
import { defineHandler, json, readJson } from '../../../../server/http';
import { verifyCodeSchema } from '../../../../shared/schemas/auth';

export const prerender = false;

/** The code step; only valid with the pending challenge cookie from the password step. */
export const POST = defineHandler(async ({ request, locals }) => {
  const { username, token } = verifyCodeSchema.parse(await readJson(request));
  const db = await getDb();
  const refund = await countAttempt(db, '2fa', locals.clientIp);
  const verified = await verifyChallenge(db, readCookie(request, CHALLENGE_COOKIE), username, token);
  await refund();
  const { cookies, user } = await issueSession(db, request, verified.id, locals.clientIp);
  const cleared = challengeCookie(null, isSecureRequest(request, env().SITE_URL));
  return withCookies(json({ success: true, message: 'Verification successful', user }), [...cookies, cleared]);
});
