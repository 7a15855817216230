import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { changeStamps } from '../db/schema';
import type { JsonEntity } from '../conditional';

/**
 * The Contacts tab's answers (a page of the list, the counts) cached under the 'leads' change
 * stamp, which triggers bump as any submission, response, reply delivery or replier's name
 * changes commit (migration 0007). A poll that finds the stamp unchanged costs one primary-key
 * read instead of the list's count over every matching row: the tab's poll stays as cheap at
 * 100,000 submissions as at 100, and with the embedded database (which answers one query at a
 * time) other requests' queries are not held up behind it. The stamp is the row's
 * version (xmin) and counter together, so a database restored to an earlier state never
 * matches an answer cached from another.
 *
 * The stamp is read before the answer is computed: a change committed in between is in the
 * answer but not yet in its stamp, so the next poll recomputes once; an answer is never older
 * than the stamp it is cached under. Several instances each cache their own answers against
 * the one stamp in the database.
 */
const MAX_ENTRIES = 32;
const entries = new Map<string, { stamp: string; entity: JsonEntity }>();

/** Forgets every kept answer (bundle-api.ts `startAfresh`): a stamp is only unique within one database. */
export function forgetLeadsAnswers(): void {
  entries.clear();
}

async function leadsStamp(db: Db): Promise<string | null> {
  const [row] = await db
    .select({ n: changeStamps.n, version: sql<string>`xmin::text` })
    .from(changeStamps)
    .where(eq(changeStamps.name, 'leads'));
  return row ? `${row.version}.${row.n}` : null;
}

/** The answer under `key` (the request's path and query), computed again only when the stamp has moved. */
export async function cachedLeadsAnswer(db: Db, key: string, compute: () => Promise<JsonEntity>): Promise<JsonEntity> {
  const stamp = await leadsStamp(db);
  const hit = entries.get(key);
  entries.delete(key);
  if (stamp !== null && hit?.stamp === stamp) {
    entries.set(key, hit);
    return hit.entity;
  }
  const entity = await compute();
  if (stamp !== null) {
    entries.set(key, { stamp, entity });
    // Least recently used first: a search typed once does not stay.
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  }
  return entity;
}
