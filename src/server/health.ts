import fs from 'node:fs/promises';
import path from 'node:path';
import { inArray, min, sql } from 'drizzle-orm';
import { getSiteLaunch } from './content/public-content';
import { getDb } from './db/client';
import { mailOutbox } from './db/schema';
import { env } from './env';
import { dataDir } from './paths';
import { publishStatus } from './publish/jobs';
import { leadRecipients } from './services/lead-mail';

// Beside the rooms of src/server, not in one: readiness reads several (the database, the publish jobs, the lead recipients).

/** Below this much free space on the data disk the instance reports itself not ready. */
const MIN_FREE_BYTES = 50 * 1024 * 1024;
const DB_TIMEOUT_MS = 1_000;

export interface Readiness {
  ready: boolean;
  checks: {
    database: 'ok' | 'unavailable';
    /**
     * 'hook failing': the deploy hook refused the last publish (the host's pages wait for the next
     * one); reported for alerting, not a reason to stop serving the API.
     */
    publisher: 'ok' | 'failed' | 'hook failing' | 'unknown';
    /** Age of the oldest e-mail still waiting to go out (null: none waiting). */
    oldestUnsentMailSeconds: number | null;
    disk: { freeBytes: number | null; ok: boolean };
    /** 'none': new inquiries are stored but e-mailed to nobody (no real recipient); not a reason to stop serving. */
    leadRecipients: 'ok' | 'none' | 'unknown';
    /** 'hidden': every page asks search engines not to index it until an administrator launches the site. */
    site: 'launched' | 'hidden' | 'unknown';
  };
}

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Free bytes on the disk that holds `dir`, or that will hold it: a data directory not created yet
 * (a fresh install before its first upload or backup) is measured at its nearest existing parent.
 */
async function freeBytes(dir: string): Promise<number | null> {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    try {
      const s = await fs.statfs(at);
      return s.bavail * s.bsize;
    } catch {
      if (path.dirname(at) === at) return null;
    }
  }
}

/**
 * GET /readyz: can this instance serve? The database answers within a second, the last publish
 * did not fail (a deploy hook that refused it is reported, not counted: the host's pages are not
 * this instance's to serve), the data disk has room; the mail queue's age, whether anyone real is told of new
 * inquiries, and whether the site is launched (indexed by search engines) are reported for alerting. Nothing
 * here names a version, a host or a secret.
 */
export async function readiness(): Promise<Readiness> {
  const [disk, fromDb] = await Promise.all([
    freeBytes(dataDir(env().DATA_DIR)),
    within(
      DB_TIMEOUT_MS,
      (async () => {
        const db = await getDb();
        await db.execute(sql`select 1`);
        const [mail] = await db
          .select({ oldest: min(mailOutbox.createdAt) })
          .from(mailOutbox)
          .where(inArray(mailOutbox.status, ['pending', 'sending']));
        const status = await publishStatus(db);
        const publisher: Readiness['checks']['publisher'] =
          status.state !== 'failed' ? 'ok' : status.lastErrorMode === 'webhook' ? 'hook failing' : 'failed';
        const leads = (await leadRecipients(db)).source === 'none' ? ('none' as const) : ('ok' as const);
        const site = (await getSiteLaunch(db)).launched ? ('launched' as const) : ('hidden' as const);
        return { publisher, leads, site, oldest: mail?.oldest ? new Date(mail.oldest) : null };
      })(),
    ).catch(() => undefined),
  ]);
  const checks: Readiness['checks'] = {
    database: fromDb ? 'ok' : 'unavailable',
    publisher: fromDb?.publisher ?? 'unknown',
    oldestUnsentMailSeconds: fromDb?.oldest ? Math.max(0, Math.round((Date.now() - fromDb.oldest.getTime()) / 1000)) : null,
    disk: { freeBytes: disk, ok: disk === null || disk >= MIN_FREE_BYTES },
    leadRecipients: fromDb?.leads ?? 'unknown',
    site: fromDb?.site ?? 'unknown',
  };
  const publishing = checks.publisher === 'ok' || checks.publisher === 'hook failing';
  return { ready: checks.database === 'ok' && publishing && checks.disk.ok, checks };
}
