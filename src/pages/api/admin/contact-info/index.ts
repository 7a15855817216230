import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { createContactInfo, listContactInfo } from '#server/services/contact-info.ts';
import { contactInfoSchema } from '#shared/schemas/contact-info.ts';

export const prerender = false;

export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await listContactInfo(await getDb()));
});

export const POST = defineHandler(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const input = await readBody(request, contactInfoSchema);
  return json(await createContactInfo(await getDb(), input, actor, locals.publish), { status: 201 });
});

export const ALL = methodNotAllowed(['GET', 'POST']);
