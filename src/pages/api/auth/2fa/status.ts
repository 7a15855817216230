import { requireUser } from '../../../../server/auth/guard';
import { twoFactorStatus } from '../../../../server/auth/two-factor';
import { getDb } from '../../../../server/db/client';
import { defineHandler, json } from '../../../../server/http';

export const prerender = false;

export const GET = defineHandler(async ({ locals }) => {
  const user = requireUser(locals);
  return json(await twoFactorStatus(await getDb(), user.id));
});
