import { CONTENT_SECTIONS, type ContentSection } from '#shared/constants.ts';
import { headerCtaPatchSchema, headerCtaSchema } from '#shared/schemas/header-cta.ts';
import { headerPatchSchema, headerSchema } from '#shared/schemas/header.ts';
import type { RequestPublish } from '../content/changes';
import type { Db } from '../db/client';
import { HttpError, parseKnown } from '../http';
import type { Actor } from './audit';
import { createBlock, listBlocks, updateBlock } from './content-blocks';
import { createHeader, listHeaders, updateHeader } from './header';
import { createHeaderCta, listHeaderCtas, updateHeaderCta } from './header-cta';
import { isPublicSection } from '../content/public-content';

/*
 * The /api/content/{section} family routes to the right store: the header and header CTA have
 * their own tables, every other section is a generic content block.
 */

function knownSection(section: string) {
  if (!isPublicSection(section)) throw new HttpError(404, `Unknown content section: ${section}`);
  return section;
}
const isBlockSection = (s: string): s is ContentSection => (CONTENT_SECTIONS as readonly string[]).includes(s);

/** The section named in a `POST /api/content` body. */
export function sectionFromBody(body: unknown): string {
  const section = (body as { section?: unknown } | null)?.section;
  if (typeof section !== 'string' || !section) throw new HttpError(400, 'Section is required');
  if (!isPublicSection(section)) throw new HttpError(400, `Unknown content section: ${section}`);
  return section;
}

export async function listSection(db: Db, section: string) {
  const s = knownSection(section);
  if (s === 'header') return listHeaders(db);
  if (s === 'header-cta') return listHeaderCtas(db);
  return listBlocks(db, s);
}

export async function createInSection(db: Db, section: string, body: unknown, actor: Actor, publish: RequestPublish) {
  const s = knownSection(section);
  if (s === 'header') return createHeader(db, parseKnown(headerSchema, body, ['section']), actor, publish);
  if (s === 'header-cta') return createHeaderCta(db, parseKnown(headerCtaSchema, body, ['section']), actor, publish);
  return createBlock(db, s, body, actor, publish);
}

/** `PATCH /api/content/{section}/{id}`; `section` undefined for `PATCH /api/content/{id}` (blocks only). */
export async function updateInSection(
  db: Db,
  section: string | undefined,
  id: number,
  body: unknown,
  actor: Actor,
  publish: RequestPublish,
) {
  if (section === undefined) return updateBlock(db, id, body, actor, publish);
  const s = knownSection(section);
  if (s === 'header') return updateHeader(db, id, parseKnown(headerPatchSchema, body), actor, publish);
  if (s === 'header-cta') return updateHeaderCta(db, id, parseKnown(headerCtaPatchSchema, body), actor, publish);
  if (!isBlockSection(s)) throw new HttpError(404, `Unknown content section: ${s}`);
  return updateBlock(db, id, body, actor, publish, s);
}
