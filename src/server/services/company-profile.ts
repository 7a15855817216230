import { eq, sql } from 'drizzle-orm';
import type { companyProfilePatchSchema } from '#shared/schemas/company-profile.ts';
import { STARTING_COMPANY } from '#shared/company.ts';
import type { z } from 'zod';
import type { Db, Tx } from '../db/client';
import { companyProfile, type CompanyProfile } from '../db/schema';
import { requestPublish } from '../publish/publisher';
import type { Actor } from './audit';
import { updateRow } from './versioned';

/** Creates the profile row once (every start; an existing install gets it on upgrade). */
export async function ensureCompanyProfile(db: Db | Tx): Promise<boolean> {
  const inserted = await db
    .insert(companyProfile)
    .values({ ...STARTING_COMPANY })
    .onConflictDoNothing({ target: companyProfile.singleton })
    .returning({ id: companyProfile.id });
  return inserted.length > 0;
}

/** GET /api/admin/company-profile: the profile with its version (created if missing). */
export async function getCompanyProfile(db: Db | Tx): Promise<CompanyProfile> {
  const [row] = await db.select().from(companyProfile).where(eq(companyProfile.singleton, true));
  if (row) return row;
  await ensureCompanyProfile(db);
  return getCompanyProfile(db);
}

/** PATCH /api/admin/company-profile: any subset of the fields, refused (409) on a stale version. */
export async function updateCompanyProfile(db: Db, patch: z.output<typeof companyProfilePatchSchema>, actor: Actor) {
  const current = await getCompanyProfile(db);
  const { version, figures, ...fields } = patch;
  const { after } = await updateRow<CompanyProfile>(
    db,
    companyProfile,
    current.id,
    // Figures merge key by key, so a form that sends one figure does not clear the others.
    { ...fields, ...(figures ? { figures: sql`${companyProfile.figures} || ${JSON.stringify(figures)}::jsonb` } : {}), version },
    { actor, entity: 'company_profile', notFound: 'Company profile not found' },
  );
  await requestPublish('company profile updated');
  return after;
}
