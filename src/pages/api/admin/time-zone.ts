import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { getBusinessTimeZone, setBusinessTimeZone } from '#server/services/business-time-zone.ts';
import { businessTimeZoneSchema } from '#shared/schemas/business-time-zone.ts';

export const prerender = false;

/** The business's time zone (the CSV export's dates are written in it). */
export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await getBusinessTimeZone(await getDb()));
});

/** `{ timeZone }`: an IANA name the server's Intl knows; audited. */
export const PUT = defineHandler(async ({ locals, request }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const setting = await readBody(request, businessTimeZoneSchema);
  return json(await setBusinessTimeZone(await getDb(), setting, actor));
});

export const ALL = methodNotAllowed(['GET', 'PUT']);
