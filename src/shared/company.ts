import { MARKETING_FIGURES } from './constants';
import type { CompanyProfileValues } from './schemas/company-profile';
import { SITE } from './site-config';

/** The business's identity as pages read it (the company profile, SPEC 3 beyond the spec's entities). */
export type Company = CompanyProfileValues;

/**
 * The starting profile of a new install, and what a build without a database shows: names, NAICS
 * codes and compliance statements as the business was first described; UEI, CAGE, SAM dates and
 * the procurement e-mail empty until the owner enters them (pages leave out what is not set).
 */
export const STARTING_COMPANY: Company = {
  legalName: SITE.name,
  shortName: SITE.shortName,
  tagline: SITE.tagline,
  description: SITE.description,
  uei: null,
  cageCode: null,
  setAside: 'WOSB / Small Business',
  samActive: false,
  samExpiresOn: null,
  certifications: [],
  procurementTypes: [...SITE.procurementTypes],
  naicsCodes: SITE.naics.map((n) => ({ code: n.code, title: n.title, partnerSupply: n.partnerText })),
  procurementEmail: null,
  complianceStatements: [...SITE.compliance],
  figures: { ...MARKETING_FIGURES },
  // The spec's sample figures wait for the owner to confirm them before any page shows them.
  figuresConfirmed: false,
  founderName: null,
  founderTitle: null,
  founderPhoto: null,
  founderPhotoAlt: null,
  founderStory: null,
};

/** The figures the pages may show: none until the owner confirmed them in the Company tab. */
export function publishedFigures(company: Company): Partial<Company['figures']> {
  return company.figuresConfirmed ? company.figures : {};
}

/** The company of a content snapshot; the starting profile when the snapshot has none. */
export function companyOf(content: { company?: Company | null }): Company {
  return content.company ?? STARTING_COMPANY;
}

/** A yyyy-mm-dd date as buyers read it ('May 1, 2027'). */
export function formatDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
}

/**
 * What the site says of the SAM registration: nothing unless the owner marked it active; with the
 * renewal date she entered, if any (the back office warns her as it nears).
 */
export function samStatus(company: Company): { through: string | null } | null {
  if (!company.samActive) return null;
  return { through: company.samExpiresOn ? formatDay(company.samExpiresOn) : null };
}
