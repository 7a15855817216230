import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, readJson } from '#server/http.ts';
import { submitContact } from '#server/services/contact.ts';

export const prerender = false;

/** SPEC 2.10 / 7: the public contact form. 201 with the new submission's id. */
export const POST = defineHandler(async ({ request, locals }) => {
  const body = await readJson(request);
  const saved = await submitContact(await getDb(), body, {
    ip: locals.clientIp ?? 'unknown',
    userAgent: request.headers.get('user-agent'),
  });
  return json({ id: saved.id, status: saved.status, message: 'Your message has been sent successfully.' }, { status: 201 });
});

export const ALL = methodNotAllowed(['POST']);
