import { z } from 'zod';
import { patchSchema, requiredText } from './fields';

/** The longest saved reply: as long as a whole reply may be. */
export const SAVED_REPLY_BODY_MAX = 10_000;

/**
 * A saved reply: a reusable snippet the Respond dialog inserts at the cursor, managed in the
 * Templates tab (GET/POST /api/admin/saved-replies, PATCH/DELETE /api/admin/saved-replies/{id}).
 */
export const savedReplySchema = z.object({
  title: requiredText('Title is required', 100),
  body: requiredText('Text is required', SAVED_REPLY_BODY_MAX),
});
export type SavedReplyInput = z.input<typeof savedReplySchema>;
export type SavedReplyValues = z.output<typeof savedReplySchema>;

export const savedReplyPatchSchema = patchSchema(savedReplySchema);
