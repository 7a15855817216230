import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { contactInfoPatchSchema, contactInfoSchema } from '#shared/schemas/contact-info.ts';
import type { Db, Tx } from '../db/client';
import { contactInfo, type ContactInfo } from '../db/schema';
import { requestPublish } from '../publish/publisher';
import { recordAudit, type Actor } from './audit';
import { createRow, updateRow } from './versioned';

/** Every record, the displayed one first. */
export function listContactInfo(db: Db) {
  return db.select().from(contactInfo).orderBy(desc(contactInfo.isActive), desc(contactInfo.updatedAt), desc(contactInfo.id));
}

/**
 * One active record, kept here rather than left to the editor's help text: activating one deactivates the others in the same
 * transaction, before the write, so the partial unique index never sees two.
 */
async function deactivateOthers(tx: Tx, actor: Actor, keepId?: number) {
  const others = await tx
    .update(contactInfo)
    .set({ isActive: false, version: sql`${contactInfo.version} + 1` })
    .where(keepId ? and(eq(contactInfo.isActive, true), ne(contactInfo.id, keepId)) : eq(contactInfo.isActive, true))
    .returning();
  for (const row of others) {
    await recordAudit(tx, actor, {
      action: 'update',
      entity: 'contact-info',
      entityId: row.id,
      before: { isActive: true },
      after: { isActive: false },
    });
  }
}

/** Pages show the active record's e-mail (contact page, privacy policy, structured data): they are rebuilt. */
export async function createContactInfo(db: Db, input: z.output<typeof contactInfoSchema>, actor: Actor) {
  const created = await createRow<ContactInfo>(db, contactInfo, input, {
    actor,
    entity: 'contact-info',
    beforeWrite: (tx) => (input.isActive ? deactivateOthers(tx, actor) : Promise.resolve()),
  });
  await requestPublish('contact information created');
  return created;
}

export async function updateContactInfo(db: Db, id: number, patch: z.output<typeof contactInfoPatchSchema>, actor: Actor) {
  const { after } = await updateRow<ContactInfo>(db, contactInfo, id, patch, {
    actor,
    entity: 'contact-info',
    notFound: 'Contact information not found',
    prepare: async (tx, _row, values) => {
      if (values.isActive === true) await deactivateOthers(tx, actor, id);
      return values;
    },
  });
  await requestPublish('contact information updated');
  return after;
}
