import type { SiteLaunch } from '#shared/schemas/site-launch.ts';
import type { Db } from '../db/client';
import { appMeta } from '../db/schema';
import type { RequestPublish } from '../content/changes';
import { SITE_LAUNCH_KEY as KEY, getSiteLaunch } from '../content/public-content';
import { log } from '../log';
import { recordAudit, type Actor } from './audit';

/*
 * Launching the site: one app_meta row. Until the owner launches it, every page asks search
 * engines not to index it (a meta tag and X-Robots-Tag) and robots.txt refuses every crawler, so
 * the starter content of a new install is never indexed. Launching (or hiding the site again) is
 * audited and publishes every page.
 */

const ENTITY = 'site-launch';

/** A new install's first state: hidden until the owner launches it. Leaves an existing choice alone. */
export async function startHidden(db: Db): Promise<void> {
  await db
    .insert(appMeta)
    .values({ key: KEY, value: { launched: false } })
    .onConflictDoNothing();
}

/** Stores the choice with its audit row in one transaction, then publishes. */
export async function setSiteLaunch(db: Db, setting: SiteLaunch, actor: Actor, publish: RequestPublish): Promise<{ launched: boolean }> {
  const changed = await db.transaction(async (tx) => {
    const before = await getSiteLaunch(tx);
    if (before.launched === setting.launched) return false;
    await tx
      .insert(appMeta)
      .values({ key: KEY, value: { launched: setting.launched } })
      .onConflictDoUpdate({ target: appMeta.key, set: { value: { launched: setting.launched } } });
    await recordAudit(tx, actor, {
      action: 'update',
      entity: ENTITY,
      entityId: KEY,
      before,
      after: { launched: setting.launched },
      subject: setting.launched ? 'Launched the site' : 'Hid the site from search engines',
    });
    return true;
  });
  if (changed) {
    log.info(setting.launched ? 'site launched: search engines may index it' : 'site hidden from search engines', {
      by: actor.username,
    });
    await publish({ kind: 'site-launch', id: null, action: 'updated' });
  }
  return { launched: setting.launched };
}
