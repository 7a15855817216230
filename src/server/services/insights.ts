import { and, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { insightPatchSchema, insightSchema } from '#shared/schemas/insight.ts';
import type { Db, Tx } from '../db/client';
import { insights, type Insight } from '../db/schema';
import { HttpError } from '../http';
import type { ContentChange, RequestPublish } from '../content/changes';
import type { Actor } from './audit';
import { preparePlainText } from './insight-search';
import { createRow, deleteRow, updateRow } from './versioned';

const SLUG_TAKEN = 'An insight with this slug already exists';

async function assertSlugFree(tx: Tx, slug: string, exceptId?: number) {
  const where = exceptId ? and(eq(insights.slug, slug), ne(insights.id, exceptId)) : eq(insights.slug, slug);
  const [taken] = await tx.select({ id: insights.id }).from(insights).where(where).limit(1);
  if (taken) throw new HttpError(409, SLUG_TAKEN);
}

/**
 * SPEC 4: publishing stamps publicationDate (now, unless a date is given or the insight was
 * already published with one); unpublishing clears it.
 */
function publicationDateFor(
  isPublished: boolean,
  given: string | null | undefined,
  stored?: Pick<Insight, 'isPublished' | 'publicationDate'>,
): Date | null {
  if (!isPublished) return null;
  if (given) return new Date(given);
  if (stored?.isPublished && stored.publicationDate) return stored.publicationDate;
  return new Date();
}

/** Drafts change no public page; anything that is or was published does. */
async function publishIfPublic(publish: RequestPublish, change: ContentChange, ...rows: (Pick<Insight, 'isPublished'> | undefined)[]) {
  if (rows.some((r) => r?.isPublished)) await publish(change);
}

export async function createInsight(db: Db, input: z.output<typeof insightSchema>, actor: Actor, publish: RequestPublish) {
  const values = { ...input, publicationDate: publicationDateFor(input.isPublished, input.publicationDate) };
  const created = await createRow<Insight>(db, insights, values, {
    actor,
    entity: 'insight',
    beforeWrite: (tx) => assertSlugFree(tx, input.slug),
    afterWrite: preparePlainText,
  });
  await publishIfPublic(publish, { kind: 'insight', id: created.id, action: 'created' }, created);
  return created;
}

export async function updateInsight(db: Db, id: number, patch: z.output<typeof insightPatchSchema>, actor: Actor, publish: RequestPublish) {
  const { before, after } = await updateRow<Insight>(db, insights, id, patch, {
    actor,
    entity: 'insight',
    notFound: 'Insight not found',
    prepare: async (tx, row, values) => {
      if (typeof values.slug === 'string') await assertSlugFree(tx, values.slug, id);
      if (values.isPublished === undefined && values.publicationDate === undefined) return values;
      const isPublished = (values.isPublished as boolean | undefined) ?? row.isPublished;
      return { ...values, publicationDate: publicationDateFor(isPublished, values.publicationDate as string | null | undefined, row) };
    },
    afterWrite: preparePlainText,
  });
  await publishIfPublic(publish, { kind: 'insight', id, action: 'updated' }, before, after);
  return after;
}

export async function deleteInsight(db: Db, id: number, actor: Actor, publish: RequestPublish) {
  const row = await deleteRow<Insight>(db, insights, id, { actor, entity: 'insight', notFound: 'Insight not found' });
  await publishIfPublic(publish, { kind: 'insight', id, action: 'deleted' }, row);
  return row;
}
