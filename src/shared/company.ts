import { MARKETING_FIGURES } from './constants';
import { impliedComplianceStatus } from './compliance';
import type { ComplianceStatement, CompanyProfileValues } from './schemas/company-profile';
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
  showNameWithLogo: false,
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
  complianceStatements: SITE.compliance.map((text) => ({ text, status: impliedComplianceStatus(text) })),
  contractVehicles: [],
  pscCodes: [],
  contactPersonEmail: null,
  contactPersonPhone: null,
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

/** The day (yyyy-mm-dd, UTC) a page is built, against which expiry dates are read. */
export const today = (at: Date = new Date()): string => at.toISOString().slice(0, 10);

/**
 * What the site says of the SAM registration: nothing unless the owner marked it active and its
 * renewal date, if she entered one, has not passed; with that date (the back office warns her as
 * it nears, and the server builds the pages again the day after it passes).
 */
export function samStatus(company: Company, on: string = today()): { through: string | null } | null {
  if (!company.samActive || (company.samExpiresOn && company.samExpiresOn < on)) return null;
  return { through: company.samExpiresOn ? formatDay(company.samExpiresOn) : null };
}

/** The certifications the site shows as held: those without an expiry date or not past it. */
export function currentCertifications(company: Company, on: string = today()): Company['certifications'] {
  return company.certifications.filter((c) => !c.expiresOn || c.expiresOn >= on);
}

/**
 * The latest expiry date (of a certification, or of the SAM registration marked active) that has
 * passed by `on`, or null: the pages change when it does, so it is part of what they are built from.
 */
export function lastExpiry(company: Company, on: string = today()): string | null {
  const dates = [...company.certifications.map((c) => c.expiresOn), company.samActive ? company.samExpiresOn : null];
  return dates.filter((d): d is string => Boolean(d) && d! < on).reduce<string | null>((a, d) => (a && a > d ? a : d), null);
}

/**
 * The compliance rows the federal page lists: every one but those marked "No". A statement stored
 * as bare text (a snapshot from before statuses) takes the status its words imply.
 */
export function shownCompliance(company: Company): ComplianceStatement[] {
  return (company.complianceStatements as (ComplianceStatement | string)[])
    .map((c) => (typeof c === 'string' ? { text: c, status: impliedComplianceStatus(c) } : c))
    .filter((c) => c.status !== 'no');
}
