import { loadUser, requireCurrentPassword } from '#server/auth/account.ts';
import { requireUser } from '#server/auth/guard.ts';
import { countAttempt } from '#server/auth/limits.ts';
import { disableTwoFactor } from '#server/auth/two-factor.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, readBody } from '#server/http.ts';
import { twoFactorDisableSchema } from '#shared/schemas/auth.ts';

export const prerender = false;

/** Needs the current password and a code from the app (or a recovery code). */
export const POST = defineHandler(async ({ request, locals }) => {
  const me = requireUser(locals);
  const input = await readBody(request, twoFactorDisableSchema);
  const db = await getDb();
  const refund = await countAttempt(db, '2fa', locals.clientIp);
  await requireCurrentPassword(db, me.id, input.currentPassword);
  await disableTwoFactor(db, await loadUser(db, me.id), input.token);
  await refund();
  return json({ success: true, message: 'Two-factor authentication has been disabled.' });
});
