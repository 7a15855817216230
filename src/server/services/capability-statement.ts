import type { CapabilityStatementSetting } from '#shared/schemas/capability-statement.ts';
import type { Db } from '../db/client';
import type { RequestPublish } from '../content/changes';
import { CAPABILITY_STATEMENT_KEY as KEY, getCapabilityStatementSetting } from '../content/public-content';
import { storeSetting } from './app-setting';
import type { Actor } from './audit';

/*
 * The Documents tab's "Use generated statement", kept as one app_meta row (a setting, not a
 * table of its own). Absent until the owner sets it: the pages then offer the generated statement
 * unless an uploaded capability statement is active (shared/documents.ts).
 */

/** Stores the choice with its audit row in one transaction, then publishes. */
export async function setCapabilityStatementSetting(db: Db, setting: CapabilityStatementSetting, actor: Actor, publish: RequestPublish) {
  await db.transaction(async (tx) => {
    const before = await getCapabilityStatementSetting(tx);
    await storeSetting(tx, actor, {
      key: KEY,
      before,
      value: { useGenerated: setting.useGenerated },
      subject: 'Use generated statement',
    });
  });
  await publish({ kind: 'capability-statement', id: null, action: 'updated' });
  return { useGenerated: setting.useGenerated };
}
