import { loadUser } from '#server/auth/account.ts';
import { isSecureRequest } from '#server/auth/cookies.ts';
import { knownDevice } from '#server/auth/device.ts';
import { countAttempt } from '#server/auth/limits.ts';
import { LINK_EXPIRED, completeLink, heldLink, linkCookie } from '#server/auth/provider-link.ts';
import { answerSignIn, signInWithPassword } from '#server/auth/sign-in.ts';
import { getDb } from '#server/db/client.ts';
import { env } from '#server/env.ts';
import { HttpError, defineHandler, readJson } from '#server/http.ts';
import { providerLinkSchema } from '#shared/schemas/auth.ts';

export const prerender = false;

/**
 * The link step of a provider sign-in (the sign-in page after `/auth?step=link`): the password of
 * the account the provider identity would be linked to. It counts as a sign-in attempt (the same
 * limits and lockout as POST /api/login); when right, the identity is linked (audited, the account's
 * address e-mailed) and the sign-in goes on as a password sign-in would: a session, or the code step.
 */
export const POST = defineHandler(async ({ request, locals }) => {
  const { password } = providerLinkSchema.parse(await readJson(request));
  const db = await getDb();
  const secure = isSecureRequest(request, env().SITE_URL);
  const link = await heldLink(db, request);
  if (!link) throw new HttpError(400, LINK_EXPIRED);
  const refund = await countAttempt(db, 'login', locals.clientIp);
  const account = await loadUser(db, link.userId);
  const outcome = await signInWithPassword(db, account.username ?? account.email, password, locals.clientIp, (userId) =>
    knownDevice(request, userId),
  );
  await refund();
  await completeLink(db, account, link, locals.clientIp);
  // The code step names the account (the page only knew the provider).
  return answerSignIn(db, request, outcome, locals.clientIp, [linkCookie(null, secure)], { username: account.username ?? account.email });
});
