import { asc } from 'drizzle-orm';
import type { z } from 'zod';
import type { SavedReplyValues, savedReplyPatchSchema } from '#shared/schemas/saved-reply.ts';
import type { Db } from '../db/client';
import { savedReplies, type SavedReply } from '../db/schema';
import type { Actor } from './audit';
import { createRow, deleteRow, updateRow } from './versioned';

const NOT_FOUND = 'Saved reply not found';
const ENTITY = 'saved-reply';

/** Every saved reply, by title (the order the Respond dialog's picker offers them in). */
export function listSavedReplies(db: Db) {
  return db.select().from(savedReplies).orderBy(asc(savedReplies.title), asc(savedReplies.id));
}

export function createSavedReply(db: Db, input: SavedReplyValues, actor: Actor) {
  return createRow<SavedReply>(db, savedReplies, input, { actor, entity: ENTITY });
}

/** A stale `version` is refused with 409 and changes nothing. */
export async function updateSavedReply(db: Db, id: number, patch: z.output<typeof savedReplyPatchSchema>, actor: Actor) {
  return (await updateRow<SavedReply>(db, savedReplies, id, patch, { actor, entity: ENTITY, notFound: NOT_FOUND })).after;
}

export function deleteSavedReply(db: Db, id: number, actor: Actor) {
  return deleteRow<SavedReply>(db, savedReplies, id, { actor, entity: ENTITY, notFound: NOT_FOUND });
}
