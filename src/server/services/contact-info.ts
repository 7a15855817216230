import { desc } from 'drizzle-orm';
import type { z } from 'zod';
import type { contactInfoPatchSchema, contactInfoSchema } from '#shared/schemas/contact-info.ts';
import type { Db } from '../db/client';
import { contactInfo, type ContactInfo } from '../db/schema';
import type { RequestPublish } from '../content/changes';
import type { Actor } from './audit';
import { createRow, deactivateOthers, updateRow } from './versioned';

/** Every record, the displayed one first. */
export function listContactInfo(db: Db) {
  return db.select().from(contactInfo).orderBy(desc(contactInfo.isActive), desc(contactInfo.updatedAt), desc(contactInfo.id));
}

/**
 * One active record, kept here rather than left to the editor's help text: activating one
 * deactivates the others (`deactivateOthers`). Pages show the active record's e-mail (contact
 * page, privacy policy, structured data): they are rebuilt.
 */
export async function createContactInfo(db: Db, input: z.output<typeof contactInfoSchema>, actor: Actor, publish: RequestPublish) {
  const created = await createRow<ContactInfo>(db, contactInfo, input, {
    actor,
    entity: 'contact-info',
    beforeWrite: (tx) => (input.isActive ? deactivateOthers(tx, contactInfo, { actor, entity: 'contact-info' }) : Promise.resolve()),
  });
  await publish({ kind: 'contact-info', id: created.id, action: 'created' });
  return created;
}

export async function updateContactInfo(
  db: Db,
  id: number,
  patch: z.output<typeof contactInfoPatchSchema>,
  actor: Actor,
  publish: RequestPublish,
) {
  const { after } = await updateRow<ContactInfo>(db, contactInfo, id, patch, {
    actor,
    entity: 'contact-info',
    notFound: 'Contact information not found',
    prepare: async (tx, _row, values) => {
      if (values.isActive === true) await deactivateOthers(tx, contactInfo, { actor, entity: 'contact-info', keepId: id });
      return values;
    },
  });
  await publish({ kind: 'contact-info', id, action: 'updated' });
  return after;
}
