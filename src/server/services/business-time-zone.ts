import { eq } from 'drizzle-orm';
import { DEFAULT_TIME_ZONE, businessTimeZoneSchema, type BusinessTimeZone } from '#shared/schemas/business-time-zone.ts';
import type { Db, Tx } from '../db/client';
import { appMeta } from '../db/schema';
import { storeSetting } from './app-setting';
import type { Actor } from './audit';

/*
 * The business's time zone, one app_meta row (a setting, not a table of its own). The Contacts
 * tab's CSV export writes its dates in it. Absent until the owner chooses one: America/New_York.
 * No public page shows it, so changing it publishes nothing.
 */

const KEY = 'business-time-zone';

/** The stored time zone, or the default when none is stored (or the row does not read as one). */
export async function getBusinessTimeZone(db: Db | Tx): Promise<BusinessTimeZone> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, KEY));
  const parsed = businessTimeZoneSchema.safeParse(row?.value);
  return { timeZone: parsed.success ? parsed.data.timeZone : DEFAULT_TIME_ZONE };
}

/** Stores the choice with its audit row in one transaction (no row when it does not change). */
export async function setBusinessTimeZone(db: Db, setting: BusinessTimeZone, actor: Actor): Promise<BusinessTimeZone> {
  await db.transaction(async (tx) => {
    const before = await getBusinessTimeZone(tx);
    if (before.timeZone === setting.timeZone) return;
    await storeSetting(tx, actor, { key: KEY, before, value: { timeZone: setting.timeZone }, subject: 'Business time zone' });
  });
  return { timeZone: setting.timeZone };
}
