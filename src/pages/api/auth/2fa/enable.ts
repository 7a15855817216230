import { requireUser } from '#server/auth/guard.ts';
import { countAttempt } from '#server/auth/limits.ts';
import { enableTwoFactor } from '#server/auth/two-factor.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, readBody } from '#server/http.ts';
import { twoFactorEnableSchema } from '#shared/schemas/auth.ts';

export const prerender = false;

/** Turns 2FA on after a code from the app; the ten recovery codes are in this answer only. */
export const POST = defineHandler(async ({ request, locals }) => {
  const user = requireUser(locals);
  const input = await readBody(request, twoFactorEnableSchema);
  const db = await getDb();
  const refund = await countAttempt(db, '2fa', locals.clientIp);
  const recoveryCodes = await enableTwoFactor(db, user.id, input);
  await refund();
  return json({ success: true, message: 'Two-factor authentication has been successfully enabled.', recoveryCodes });
});
