import { requireUser } from '../../../../server/auth/guard';
import { countAttempt } from '../../../../server/auth/limits';
import { enableTwoFactor } from '../../../../server/auth/two-factor';
import { getDb } from '../../../../server/db/client';
import { defineHandler, json, readJson } from '../../../../server/http';
import { twoFactorEnableSchema } from '../../../../shared/schemas/auth';

export const prerender = false;

/** Turns 2FA on after a code from the app; the ten recovery codes are in this answer only. */
export const POST = defineHandler(async ({ request, locals }) => {
  const user = requireUser(locals);
  const input = twoFactorEnableSchema.parse(await readJson(request));
  const db = await getDb();
  const refund = await countAttempt(db, '2fa', locals.clientIp);
  const recoveryCodes = await enableTwoFactor(db, user.id, input);
  await refund();
  return json({ success: true, message: 'Two-factor authentication has been successfully enabled.', recoveryCodes });
});
