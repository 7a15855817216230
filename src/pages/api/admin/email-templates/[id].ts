import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, parseId, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { deleteEmailTemplate, updateEmailTemplate } from '#server/services/email-templates.ts';
import { emailTemplatePatchSchema } from '#shared/schemas/email-template.ts';

export const prerender = false;

export const PATCH = defineHandler(async ({ params, request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const id = parseId(params.id);
  const patch = await readBody(request, emailTemplatePatchSchema);
  return json(await updateEmailTemplate(await getDb(), id, patch, actor));
});

export const DELETE = defineHandler(async ({ params, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  await deleteEmailTemplate(await getDb(), parseId(params.id), actor);
  return json({ success: true });
});

export const ALL = methodNotAllowed(['PATCH', 'DELETE']);
