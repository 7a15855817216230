import type { Tx } from '../db/client';
import { appMeta } from '../db/schema';
import { recordAudit, type Actor } from './audit';

/**
 * Stores a back-office setting kept as one app_meta row (its key names it in the audit log too),
 * with its audit row; call it inside the transaction that read `before`.
 */
export async function storeSetting(
  tx: Tx,
  actor: Actor,
  setting: { key: string; before: Record<string, unknown>; value: Record<string, unknown>; subject: string },
): Promise<void> {
  const { key, before, value, subject } = setting;
  await tx.insert(appMeta).values({ key, value }).onConflictDoUpdate({ target: appMeta.key, set: { value } });
  await recordAudit(tx, actor, { action: 'update', entity: key, entityId: key, before, after: value, subject });
}
