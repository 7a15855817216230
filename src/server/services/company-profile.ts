import { eq, sql } from 'drizzle-orm';
import { MARKETING_FIGURES } from '#shared/constants.ts';
import type { companyProfilePatchSchema, CompanyProfileValues } from '#shared/schemas/company-profile.ts';
import { SITE } from '#shared/site-config.ts';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { companyProfile, type CompanyProfile } from '../db/schema';
import { requestPublish } from '../publish/publisher';
import type { Actor } from './audit';
import { updateRow } from './versioned';

/**
 * The starting profile of a new install: names, NAICS codes and compliance statements of the
 * business as first described; UEI, CAGE, SAM dates and the procurement e-mail stay empty until the
 * owner enters them (a page leaves out what is not set, never shows a placeholder).
 */
export const STARTING_PROFILE: CompanyProfileValues = {
  legalName: SITE.name,
  shortName: SITE.shortName,
  tagline: SITE.tagline,
  description: SITE.description,
  uei: null,
  cageCode: null,
  setAside: 'Woman-Owned Small Business (WOSB)',
  samActive: false,
  samExpiresOn: null,
  certifications: [],
  procurementTypes: [...SITE.procurementTypes],
  naicsCodes: SITE.naics.map((n) => ({ code: n.code, title: n.title, partnerSupply: n.partnerText })),
  procurementEmail: null,
  complianceStatements: [...SITE.compliance],
  figures: { ...MARKETING_FIGURES },
};

/** Creates the profile row once (every start; an existing install gets it on upgrade). */
export async function ensureCompanyProfile(db: Db): Promise<boolean> {
  const inserted = await db
    .insert(companyProfile)
    .values({ ...STARTING_PROFILE })
    .onConflictDoNothing({ target: companyProfile.singleton })
    .returning({ id: companyProfile.id });
  return inserted.length > 0;
}

/** GET /api/admin/company-profile: the profile with its version (created if missing). */
export async function getCompanyProfile(db: Db): Promise<CompanyProfile> {
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
