import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { headerCtaPatchSchema, headerCtaSchema } from '#shared/schemas/header-cta.ts';
import type { Db, Tx } from '../db/client';
import { headerCta, type HeaderCta } from '../db/schema';
import { requestPublish } from '../publish/publisher';
import { recordAudit, type Actor } from './audit';
import { createRow, updateRow } from './versioned';

const present = (row: HeaderCta) => ({ ...row, active: row.isActive });

/** Every CTA version, the active one first. */
export async function listHeaderCtas(db: Db) {
  const rows = await db.select().from(headerCta).orderBy(desc(headerCta.isActive), desc(headerCta.updatedAt), desc(headerCta.id));
  return rows.map(present);
}

/**
 * One active CTA (docs/decisions/000): activating a version deactivates the others in the same
 * transaction, before the write, so the partial unique index never sees two.
 */
async function deactivateOthers(tx: Tx, actor: Actor, keepId?: number) {
  const others = await tx
    .update(headerCta)
    .set({ isActive: false, version: sql`${headerCta.version} + 1` })
    .where(keepId ? and(eq(headerCta.isActive, true), ne(headerCta.id, keepId)) : eq(headerCta.isActive, true))
    .returning();
  for (const row of others) {
    await recordAudit(tx, actor, {
      action: 'update',
      entity: 'header-cta',
      entityId: row.id,
      before: { isActive: true },
      after: { isActive: false },
    });
  }
}

export async function createHeaderCta(db: Db, input: z.output<typeof headerCtaSchema>, actor: Actor) {
  const created = await createRow<HeaderCta>(db, headerCta, input, {
    actor,
    entity: 'header-cta',
    beforeWrite: (tx) => (input.isActive ? deactivateOthers(tx, actor) : Promise.resolve()),
  });
  await requestPublish('header CTA created');
  return present(created);
}

export async function updateHeaderCta(db: Db, id: number, patch: z.output<typeof headerCtaPatchSchema>, actor: Actor) {
  const { after } = await updateRow<HeaderCta>(db, headerCta, id, patch, {
    actor,
    entity: 'header-cta',
    notFound: 'Header CTA not found',
    prepare: async (tx, _row, values) => {
      if (values.isActive === true) await deactivateOthers(tx, actor, id);
      return values;
    },
  });
  await requestPublish('header CTA updated');
  return present(after);
}
