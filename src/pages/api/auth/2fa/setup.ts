import { loadUser } from '../../../../server/auth/account';
import { requireUser } from '../../../../server/auth/guard';
import { startSetup } from '../../../../server/auth/two-factor';
import { getDb } from '../../../../server/db/client';
import { defineHandler, json, readJson } from '../../../../server/http';

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
