import { desc } from 'drizzle-orm';
import type { z } from 'zod';
import type { headerCtaPatchSchema, headerCtaSchema } from '#shared/schemas/header-cta.ts';
import type { Db } from '../db/client';
import { headerCta, type HeaderCta } from '../db/schema';
import type { RequestPublish } from '../content/changes';
import type { Actor } from './audit';
import { createRow, deactivateOthers, updateRow } from './versioned';

const present = (row: HeaderCta) => ({ ...row, active: row.isActive });

/** Every CTA version, the active one first. */
export async function listHeaderCtas(db: Db) {
  const rows = await db.select().from(headerCta).orderBy(desc(headerCta.isActive), desc(headerCta.updatedAt), desc(headerCta.id));
  return rows.map(present);
}

/** One active CTA (docs/decisions/000): activating a version deactivates the others (`deactivateOthers`). */
export async function createHeaderCta(db: Db, input: z.output<typeof headerCtaSchema>, actor: Actor, publish: RequestPublish) {
  const created = await createRow<HeaderCta>(db, headerCta, input, {
    actor,
    entity: 'header-cta',
    beforeWrite: (tx) => (input.isActive ? deactivateOthers(tx, headerCta, { actor, entity: 'header-cta' }) : Promise.resolve()),
  });
  await publish({ kind: 'header-cta', id: created.id, action: 'created' });
  return present(created);
}

export async function updateHeaderCta(
  db: Db,
  id: number,
  patch: z.output<typeof headerCtaPatchSchema>,
  actor: Actor,
  publish: RequestPublish,
) {
  const { after } = await updateRow<HeaderCta>(db, headerCta, id, patch, {
    actor,
    entity: 'header-cta',
    notFound: 'Header CTA not found',
    prepare: async (tx, _row, values) => {
      if (values.isActive === true) await deactivateOthers(tx, headerCta, { actor, entity: 'header-cta', keepId: id });
      return values;
    },
  });
  await publish({ kind: 'header-cta', id, action: 'updated' });
  return present(after);
}
