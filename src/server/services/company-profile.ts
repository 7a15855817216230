import { sql } from 'drizzle-orm';
import type { companyProfilePatchSchema } from '#shared/schemas/company-profile.ts';
import type { z } from 'zod';
import type { Db } from '../db/client';
import type { RequestPublish } from '../content/changes';
import { getCompanyProfile } from '../content/public-content';
import { companyProfile, type CompanyProfile } from '../db/schema';
import type { Actor } from './audit';
import { updateRow } from './versioned';

/**
 * PATCH /api/admin/company-profile: any subset of the fields (the Company tab's, the About tab's
 * leadership), refused (409) on a stale version.
 */
export async function updateCompanyProfile(
  db: Db,
  patch: z.output<typeof companyProfilePatchSchema>,
  actor: Actor,
  publish: RequestPublish,
) {
  const current = await getCompanyProfile(db);
  const { version, figures, figuresConfirmed, ...fields } = patch;
  // Saving figures confirms them (they are the owner's now), unless the same save says otherwise.
  const confirmed = figuresConfirmed ?? (figures && Object.values(figures).some((v) => v !== undefined) ? true : undefined);
  const { after } = await updateRow<CompanyProfile>(
    db,
    companyProfile,
    current.id,
    // Figures merge key by key, so a form that sends one figure does not clear the others.
    {
      ...fields,
      ...(confirmed === undefined ? {} : { figuresConfirmed: confirmed }),
      ...(figures ? { figures: sql`${companyProfile.figures} || ${JSON.stringify(figures)}::jsonb` } : {}),
      version,
    },
    { actor, entity: 'company_profile', notFound: 'Company profile not found' },
  );
  await publish({ kind: 'company-profile', id: current.id, action: 'updated' });
  return after;
}
