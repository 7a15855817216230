import { byNewestPeriod } from '#shared/past-performance.ts';
import {
  END_BEFORE_START,
  endsBeforeStart,
  type PastPerformanceValues,
  type pastPerformancePatchSchema,
} from '#shared/schemas/past-performance.ts';
import type { z } from 'zod';
import type { RequestPublish } from '../content/changes';
import { listPastPerformance } from '../content/public-content';
import type { Db, Tx } from '../db/client';
import { pastPerformance, type PastPerformance } from '../db/schema';
import { HttpError } from '../http';
import type { Actor } from './audit';
import { createRow, deleteRow, updateRow } from './versioned';

const NOT_FOUND = 'Past performance entry not found';
const ENTITY = 'past-performance';

/**
 * The active entries, newest first: ongoing work first, then by end month and start month. For
 * anything that lists the business's record by date rather than in the owner's display order
 * (a generated capability statement).
 */
export async function listActivePastPerformanceNewestFirst(db: Db | Tx): Promise<PastPerformance[]> {
  return (await listPastPerformance(db, { activeOnly: true })).sort(byNewestPeriod);
}

export async function createPastPerformance(db: Db, input: PastPerformanceValues, actor: Actor, publish: RequestPublish) {
  const created = await createRow<PastPerformance>(db, pastPerformance, input, { actor, entity: ENTITY });
  await publish({ kind: 'past-performance', id: created.id, action: 'created' });
  return created;
}

/** A stale `version` is refused with 409; a period that would end before it starts with 400. Nothing changes either way. */
export async function updatePastPerformance(
  db: Db,
  id: number,
  patch: z.output<typeof pastPerformancePatchSchema>,
  actor: Actor,
  publish: RequestPublish,
) {
  const { after } = await updateRow<PastPerformance>(db, pastPerformance, id, patch, {
    actor,
    entity: ENTITY,
    notFound: NOT_FOUND,
    prepare: (_tx, row, values) => {
      const start = 'periodStart' in values ? (values.periodStart as string) : row.periodStart;
      const end = 'periodEnd' in values ? (values.periodEnd as string | null) : row.periodEnd;
      if (endsBeforeStart(start, end)) throw new HttpError(400, END_BEFORE_START);
      return values;
    },
  });
  await publish({ kind: 'past-performance', id, action: 'updated' });
  return after;
}

export async function deletePastPerformance(db: Db, id: number, actor: Actor, publish: RequestPublish) {
  const row = await deleteRow<PastPerformance>(db, pastPerformance, id, { actor, entity: ENTITY, notFound: NOT_FOUND });
  await publish({ kind: 'past-performance', id, action: 'deleted' });
  return row;
}
