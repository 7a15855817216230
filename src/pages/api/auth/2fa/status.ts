import { requireUser } from '#server/auth/guard.ts';
import { twoFactorStatus } from '#server/auth/two-factor.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json } from '#server/http.ts';

export const prerender = false;

export const GET = defineHandler(async ({ locals }) => {
  const user = requireUser(locals);
  return json(await twoFactorStatus(await getDb(), user.id));
});
