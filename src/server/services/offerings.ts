import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { serviceSchema, servicePatchSchema } from '#shared/schemas/service.ts';
import type { Db } from '../db/client';
import { services, type Service } from '../db/schema';
import type { RequestPublish } from '../content/changes';
import type { Actor } from './audit';
import { createRow, deleteRow, updateRow } from './versioned';

/** Service offerings (SPEC 2.15 Services tab). A new service without an order goes last. */
export async function createService(db: Db, input: z.output<typeof serviceSchema>, actor: Actor, publish: RequestPublish) {
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(services);
  const created = await createRow<Service>(
    db,
    services,
    { ...input, displayOrder: input.displayOrder ?? count?.n ?? 0 },
    { actor, entity: 'service' },
  );
  await publish({ kind: 'service', id: created.id, action: 'created' });
  return created;
}

export async function updateService(db: Db, id: number, patch: z.output<typeof servicePatchSchema>, actor: Actor, publish: RequestPublish) {
  const { after } = await updateRow<Service>(db, services, id, patch, { actor, entity: 'service', notFound: 'Service not found' });
  await publish({ kind: 'service', id, action: 'updated' });
  return after;
}

export async function deleteService(db: Db, id: number, actor: Actor, publish: RequestPublish) {
  const row = await deleteRow<Service>(db, services, id, { actor, entity: 'service', notFound: 'Service not found' });
  await publish({ kind: 'service', id, action: 'deleted' });
  return row;
}
