import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { createDocument } from '#server/services/documents.ts';
import { listDocuments } from '#server/content/public-content.ts';
import { documentSchema } from '#shared/schemas/document.ts';

export const prerender = false;

/** Active documents for visitors; administrators see all (docs/decisions/000). */
export const GET = defineHandler(async ({ locals }) => {
  const activeOnly = locals.user?.role !== 'admin';
  return json(await listDocuments(await getDb(), { activeOnly }));
});

/** SPEC 7: a document for a file uploaded through POST /api/documents/upload. */
export const POST = defineHandler(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const input = await readBody(request, documentSchema);
  return json(await createDocument(await getDb(), input, actor, locals.publish), { status: 201 });
});

export const ALL = methodNotAllowed(['GET', 'POST']);
