import { lastExpiry, today } from '#shared/company.ts';
import { now as clockNow } from '../clock';
import type { RequestPublish } from '../content/changes';
import { getCompanyProfile } from '../content/public-content';
import type { Db } from '../db/client';
import { lockJob, recordJobRun } from './job-runs';

const JOB = 'expiry-watch';

interface Seen {
  /** The latest certification or SAM date that had passed when last looked at (null: none). */
  passed: string | null;
}

/**
 * The pages call a certification or the SAM registration current only until its date passes
 * (src/shared/company.ts): built the day after, they leave it out or stop saying it is active. This
 * pass asks for that build. When the latest date passed is not the one the last pass saw, it records
 * a change of the company profile with `publish` (the server's publish request). The first pass only
 * takes note: a start rebuilds stale pages anyway, since what they are built from carries the same
 * date. Runs across instances as the other periodic jobs do (job-runs.ts); returns the date when it
 * asked for a publish, else null.
 */
export async function watchExpiries(db: Db, publish: RequestPublish, opts: { now?: Date } = {}): Promise<{ passed: string | null } | null> {
  const on = today(opts.now ?? clockNow());
  const changed = await db.transaction(async (tx) => {
    const seen = await lockJob<Seen>(tx, JOB);
    const passed = lastExpiry(await getCompanyProfile(tx), on);
    if (seen && (seen.passed ?? null) === passed) return null;
    await recordJobRun<Seen>(tx, JOB, { passed });
    return seen ? { passed } : null;
  });
  if (changed) await publish({ kind: 'company-profile', id: null, action: 'updated' });
  return changed;
}
