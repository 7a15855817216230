import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { sendTemplateTest } from '#server/services/email-templates.ts';
import { templateTestSchema } from '#shared/schemas/email-template.ts';

export const prerender = false;

/** 'Send test e-mail': the dialog's template with sample content, to the administrator (202: queued). */
export const POST = defineHandler(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const { template, to } = await readBody(request, templateTestSchema);
  return json(await sendTemplateTest(await getDb(), template, actor, to), { status: 202 });
});

export const ALL = methodNotAllowed(['POST']);
