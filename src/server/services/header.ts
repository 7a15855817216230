import { desc } from 'drizzle-orm';
import type { HeaderInput } from '#shared/schemas/header.ts';
import { type headerPatchSchema } from '#shared/schemas/header.ts';
import { activeFlag } from '#shared/schemas/fields.ts';
import type { Db } from '../db/client';
import { headerContent, type HeaderContent } from '../db/schema';
import type { RequestPublish } from '../content/changes';
import type { Actor } from './audit';
import { createRow, updateRow } from './versioned';
import type { z } from 'zod';

const present = (row: HeaderContent) => ({ ...row, active: row.isActive });

function toColumns(body: Partial<HeaderInput>) {
  const { active: _a, isActive: _i, ...rest } = body;
  const isActive = activeFlag(body);
  return isActive === undefined ? rest : { ...rest, isActive };
}

/** Every header version, the live one (newest active) first. */
export async function listHeaders(db: Db) {
  const rows = await db
    .select()
    .from(headerContent)
    .orderBy(desc(headerContent.isActive), desc(headerContent.updatedAt), desc(headerContent.id));
  return rows.map(present);
}

export async function createHeader(db: Db, input: HeaderInput, actor: Actor, publish: RequestPublish) {
  const created = await createRow<HeaderContent>(db, headerContent, { isActive: true, ...toColumns(input) }, { actor, entity: 'header' });
  await publish({ kind: 'header', id: created.id, action: 'created' });
  return present(created);
}

export async function updateHeader(db: Db, id: number, patch: z.output<typeof headerPatchSchema>, actor: Actor, publish: RequestPublish) {
  const { version, ...fields } = patch;
  const { after } = await updateRow<HeaderContent>(
    db,
    headerContent,
    id,
    { ...toColumns(fields), version },
    {
      actor,
      entity: 'header',
      notFound: 'Header content not found',
    },
  );
  await publish({ kind: 'header', id, action: 'updated' });
  return present(after);
}
