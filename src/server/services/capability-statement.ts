import type { CapabilityStatementSetting } from '#shared/schemas/capability-statement.ts';
import type { Db } from '../db/client';
import { appMeta } from '../db/schema';
import { recordChange } from '../content/changes';
import { CAPABILITY_STATEMENT_KEY as KEY, getCapabilityStatementSetting } from '../content/public-content';
import { recordAudit, type Actor } from './audit';

/*
 * The Documents tab's "Use generated statement", kept as one app_meta row (a setting, not a
 * table of its own). Absent until the owner sets it: the pages then offer the generated statement
 * unless an uploaded capability statement is active (shared/documents.ts).
 */

const ENTITY = 'capability-statement';

/** Stores the choice with its audit row in one transaction, then publishes. */
export async function setCapabilityStatementSetting(db: Db, setting: CapabilityStatementSetting, actor: Actor) {
  await db.transaction(async (tx) => {
    const before = await getCapabilityStatementSetting(tx);
    await tx
      .insert(appMeta)
      .values({ key: KEY, value: setting })
      .onConflictDoUpdate({ target: appMeta.key, set: { value: setting } });
    await recordAudit(tx, actor, {
      action: 'update',
      entity: ENTITY,
      entityId: KEY,
      before,
      after: { useGenerated: setting.useGenerated },
      subject: 'Use generated statement',
    });
  });
  await recordChange({ kind: 'capability-statement', id: null, action: 'updated' });
  return { useGenerated: setting.useGenerated };
}
