import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, parseId, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { deleteDocument, updateDocument } from '#server/services/documents.ts';
import { documentPatchSchema } from '#shared/schemas/document.ts';

export const prerender = false;

/** SPEC 7: metadata only (title, description, category, isActive, displayOrder). */
export const PUT = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.id);
  const patch = await readBody(request, documentPatchSchema);
  return json(await updateDocument(await getDb(), id, patch, actor, locals.publish));
});

/** Removes the document and its stored file. */
export const DELETE = defineHandler(async ({ params, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  await deleteDocument(await getDb(), parseId(params.id), actor, locals.publish);
  return json({ success: true });
});

export const ALL = methodNotAllowed(['PUT', 'DELETE']);
