import { loadUser, requireCurrentPassword } from '../../../../server/auth/account';
import { requireUser } from '../../../../server/auth/guard';
import { countAttempt } from '../../../../server/auth/limits';
import { disableTwoFactor } from '../../../../server/auth/two-factor';
import { getDb } from '../../../../server/db/client';
import { defineHandler, json, readJson } from '../../../../server/http';
import { twoFactorDisableSchema } from '../../../../shared/schemas/auth';

export const prerender = false;

/** Needs the current password and a code from the app (or a recovery code). */
export const POST = defineHandler(async ({ request, locals }) => {
  const me = requireUser(locals);
  const input = twoFactorDisableSchema.parse(await readJson(request));
  const db = await getDb();
  const refund = await countAttempt(db, '2fa', locals.clientIp);
  await requireCurrentPassword(db, me.id, input.currentPassword);
  await disableTwoFactor(db, await loadUser(db, me.id), input.token);
  await refund();
  return json({ success: true, message: 'Two-factor authentication has been disabled.' });
});
