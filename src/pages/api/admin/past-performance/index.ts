import { requireAdmin } from '#server/auth/guard.ts';
import { listPastPerformance } from '#server/content/public-content.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, methodNotAllowed, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { createPastPerformance } from '#server/services/past-performance.ts';
import { pastPerformanceSchema } from '#shared/schemas/past-performance.ts';

export const prerender = false;

/** Every entry, inactive ones too, in display order. */
export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await listPastPerformance(await getDb(), { activeOnly: false }));
});

/** A new entry; publishes the pages that show it. */
export const POST = defineHandler(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const input = await readBody(request, pastPerformanceSchema);
  return json(await createPastPerformance(await getDb(), input, actor, locals.publish), { status: 201 });
});

export const ALL = methodNotAllowed(['GET', 'POST']);
