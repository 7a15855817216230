import { loadUser } from '#server/auth/account.ts';
import { requireUser } from '#server/auth/guard.ts';
import { startSetup } from '#server/auth/two-factor.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, readJson } from '#server/http.ts';

export const prerender = false;

/** A new authenticator secret and its QR code (made here, as a data URL). */
export const POST = defineHandler(async ({ request, locals }) => {
  const me = requireUser(locals);
  await readJson(request);
  const db = await getDb();
  const user = await loadUser(db, me.id);
  const { secret, qrCode, manualEntryKey } = await startSetup(db, { ...user, username: me.username });
  return json({ secret, qrCode, manualEntryKey });
});
