import { changePassword } from '../../../server/auth/account';
import { requireUser } from '../../../server/auth/guard';
import { countAttempt } from '../../../server/auth/limits';
import { getDb } from '../../../server/db/client';
import { defineHandler, json, readJson } from '../../../server/http';
import { changePasswordSchema } from '../../../shared/schemas/auth';

export const prerender = false;

/** Needs the current password; ends every other session of the user. */
export const POST = defineHandler(async ({ request, locals }) => {
  const user = requireUser(locals);
  const input = changePasswordSchema.parse(await readJson(request));
  const db = await getDb();
  const refund = await countAttempt(db, 'password', locals.clientIp);
  await changePassword(db, user.id, locals.session?.id, input);
  await refund();
  return json({ success: true, message: 'Password changed' });
});
