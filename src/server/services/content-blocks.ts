import { desc, eq } from 'drizzle-orm';
import type { ContentSection } from '#shared/constants.ts';
import { contentCreateSchema, contentPatchSchema, joinAbout, splitAbout, type ContentBlockValues } from '#shared/schemas/content.ts';
import { activeFlag } from '#shared/schemas/fields.ts';
import type { Db } from '../db/client';
import { contentBlocks, type ContentBlock } from '../db/schema';
import { HttpError, parseKnown } from '../http';
import type { RequestPublish } from '../content/changes';
import type { Actor } from './audit';
import { presentBlock } from '../content/public-content';
import { createRow, updateRow } from './versioned';

/** Columns a content block body may set; `subtitle` and `active` are folded in first. */
function toColumns(section: ContentSection, body: Partial<ContentBlockValues>, stored?: ContentBlock) {
  const { subtitle, active: _active, isActive: _isActive, ...rest } = body;
  const values: Record<string, unknown> = { ...rest };
  const isActive = activeFlag(body);
  if (isActive !== undefined) values.isActive = isActive;
  // SPEC 3: the about block keeps the subtitle as its first paragraph.
  if (section === 'about' && subtitle !== undefined) {
    const bodyText = body.content ?? (stored ? splitAbout(stored.content).body : '');
    values.content = joinAbout(subtitle, bodyText);
  }
  if (section !== 'services_overview' && section !== 'home_services') delete values.buttonText;
  return values;
}

/**
 * Every block of a section, the one the site shows first: active before inactive, newest first
 * (the public page uses the newest active one).
 */
export async function listBlocks(db: Db, section: ContentSection) {
  const rows = await db
    .select()
    .from(contentBlocks)
    .where(eq(contentBlocks.section, section))
    .orderBy(desc(contentBlocks.isActive), desc(contentBlocks.updatedAt), desc(contentBlocks.id));
  return rows.map(presentBlock);
}

export async function createBlock(db: Db, section: ContentSection, body: unknown, actor: Actor, publish: RequestPublish) {
  const input = parseKnown(contentCreateSchema(section), body, ['section']);
  const values = { section, isActive: true, ...toColumns(section, input) };
  const created = await createRow<ContentBlock>(db, contentBlocks, values, { actor, entity: `content:${section}` });
  await publish({ kind: 'content-block', id: created.id, action: 'created' });
  return presentBlock(created);
}

/** Partial update of block `id`; with `section` given, a block of another section is a 404. */
export async function updateBlock(db: Db, id: number, body: unknown, actor: Actor, publish: RequestPublish, section?: ContentSection) {
  const [stored] = await db.select({ section: contentBlocks.section }).from(contentBlocks).where(eq(contentBlocks.id, id));
  if (!stored || (section && stored.section !== section)) throw new HttpError(404, 'Content not found');
  // SPEC 7: an edit may name its section too (the stored one decides).
  const patch = parseKnown(contentPatchSchema(stored.section), body, ['section']);
  const { version, ...fields } = patch;
  const { after } = await updateRow<ContentBlock>(
    db,
    contentBlocks,
    id,
    { ...fields, version },
    {
      actor,
      entity: `content:${stored.section}`,
      notFound: 'Content not found',
      prepare: (_tx, row) => toColumns(row.section, fields, row),
    },
  );
  await publish({ kind: 'content-block', id, action: 'updated' });
  return presentBlock(after);
}
