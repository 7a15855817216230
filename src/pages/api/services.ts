import { getDb } from '#server/db/client.ts';
import { requireAdmin } from '#server/auth/guard.ts';
import { defineHandler, json, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { createService } from '#server/services/offerings.ts';
import { serviceSchema } from '#shared/schemas/service.ts';
import { listServices } from '#server/content/public-content.ts';

export const prerender = false;

/** Services by displayOrder: active ones for visitors, all of them for an administrator. */
export const GET = defineHandler(async ({ locals }) => {
  const activeOnly = locals.user?.role !== 'admin';
  return json(await listServices(await getDb(), { activeOnly }));
});

/** A new service; without a displayOrder it goes last. */
export const POST = defineHandler(async ({ request, locals }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const input = await readBody(request, serviceSchema);
  return json(await createService(await getDb(), input, actor, locals.publish), { status: 201 });
});
