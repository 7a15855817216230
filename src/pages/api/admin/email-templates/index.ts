import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { createEmailTemplate, listEmailTemplates } from '#server/services/email-templates.ts';
import { emailTemplateSchema } from '#shared/schemas/email-template.ts';

export const prerender = false;

export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await listEmailTemplates(await getDb()));
});

export const POST = defineHandler(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const input = await readBody(request, emailTemplateSchema);
  return json(await createEmailTemplate(await getDb(), input, actor), { status: 201 });
});

export const ALL = methodNotAllowed(['GET', 'POST']);
