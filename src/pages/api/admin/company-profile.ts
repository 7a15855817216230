import { requireAdmin } from '#server/auth/guard.ts';
import { getDb } from '#server/db/client.ts';
import { defineHandler, json, readBody } from '#server/http.ts';
import { actorOf } from '#server/services/audit.ts';
import { getCompanyProfile } from '#server/content/public-content.ts';
import { updateCompanyProfile } from '#server/services/company-profile.ts';
import { companyProfilePatchSchema } from '#shared/schemas/company-profile.ts';

export const prerender = false;

/** The business's identity, as the Company tab edits it. */
export const GET = defineHandler(async ({ locals }) => {
  requireAdmin(locals);
  return json(await getCompanyProfile(await getDb()));
});

/** Any subset of the profile's fields with `version`; publishes the site. */
export const PATCH = defineHandler(async ({ locals, request }) => {
  const actor = actorOf(requireAdmin(locals), locals.clientIp);
  const patch = await readBody(request, companyProfilePatchSchema);
  return json(await updateCompanyProfile(await getDb(), patch, actor, locals.publish));
});
