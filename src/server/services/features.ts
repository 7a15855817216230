import type { FeatureSection } from '#shared/constants.ts';
import { FEATURE_SECTIONS } from '#shared/constants.ts';
import { featureCreateSchema, featurePatchSchema } from '#shared/schemas/feature.ts';
import type { Db } from '../db/client';
import { features, type Feature } from '../db/schema';
import { eq } from 'drizzle-orm';
import { HttpError, parseKnown } from '../http';
import type { RequestPublish } from '../content/changes';
import type { Actor } from './audit';
import { createRow, deleteRow, updateRow } from './versioned';

function sectionOf(body: unknown): FeatureSection {
  const section = (body as { section?: unknown } | null)?.section ?? 'home';
  if (!(FEATURE_SECTIONS as readonly unknown[]).includes(section)) throw new HttpError(400, 'Unknown feature section');
  return section as FeatureSection;
}

/** A home card, or an about card when the body says `section: 'about'` (SPEC 7). */
export async function createFeature(db: Db, body: unknown, actor: Actor, publish: RequestPublish) {
  const section = sectionOf(body);
  const input = parseKnown(featureCreateSchema(section), body);
  const created = await createRow<Feature>(db, features, input, { actor, entity: `feature:${section}` });
  await publish({ kind: 'feature', id: created.id, action: 'created' });
  return created;
}

/** The stored card's section decides the rules (about cards need a 10-character description). */
export async function updateFeature(db: Db, id: number, body: unknown, actor: Actor, publish: RequestPublish) {
  const [stored] = await db.select({ section: features.section }).from(features).where(eq(features.id, id));
  if (!stored) throw new HttpError(404, 'Feature not found');
  // SPEC 7: an about card's edit names its section too (the stored one decides).
  const patch = parseKnown(featurePatchSchema(stored.section), body, ['section']);
  const { after } = await updateRow<Feature>(db, features, id, patch, {
    actor,
    entity: `feature:${stored.section}`,
    notFound: 'Feature not found',
  });
  await publish({ kind: 'feature', id, action: 'updated' });
  return after;
}

export async function deleteFeature(db: Db, id: number, actor: Actor, publish: RequestPublish) {
  const row = await deleteRow<Feature>(db, features, id, { actor, entity: 'feature', notFound: 'Feature not found' });
  await publish({ kind: 'feature', id, action: 'deleted' });
  return row;
}
