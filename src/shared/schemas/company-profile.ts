import { z } from 'zod';
import { EMAIL_PATTERN } from '../contact-rules';
import { COMPLIANCE_STATUSES, impliedComplianceStatus } from '../compliance';
import { LIMITS, MARKETING_FIGURES } from '../constants';
import { altText, optionalPlainText, optionalUrl, patchSchema, requiredPlainText } from './fields';

/*
 * The business's own identity (edited in the back office's Company tab, read by every public
 * page, the footer, the privacy page and the JSON-LD). A value not set yet is left out of the
 * pages, never shown as a placeholder. Its texts refuse control, invisible and text-direction
 * characters (fields.ts).
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const optionalDate = (message: string) =>
  z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || (ISO_DATE.test(v) && !Number.isNaN(Date.parse(v))), message);

/** SAM.gov Unique Entity ID: 12 characters, letters (no I or O) and digits. */
const UEI_PATTERN = /^[A-HJ-NP-Z0-9]{12}$/;
/** CAGE code: 5 characters, letters (no I or O) and digits. */
const CAGE_PATTERN = /^[A-HJ-NP-Z0-9]{5}$/;

const upperOptional = (pattern: RegExp, message: string) =>
  z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v.toUpperCase() : null))
    .refine((v) => v === null || pattern.test(v), message);

/** An e-mail address, or null when left empty. */
const optionalEmail = (message: string) =>
  z
    .string()
    .trim()
    .max(254, message)
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || EMAIL_PATTERN.test(v), message);

const list = <T extends z.ZodType>(item: T, max: number, what: string) => z.array(item).max(max, `At most ${max} ${what}`).default([]);

const certificationSchema = z.object({
  name: requiredPlainText('Certification name is required', 120),
  /** A certificate or registration number, if any. */
  identifier: optionalPlainText(120),
  /** yyyy-mm-dd; the back office warns as the date nears. */
  expiresOn: optionalDate('Expiry date must be a date (YYYY-MM-DD)'),
});

const naicsCodeSchema = z.object({
  code: z
    .string({ error: 'NAICS code must be 6 digits' })
    .trim()
    .regex(/^\d{6}$/, 'NAICS code must be 6 digits'),
  title: requiredPlainText('NAICS title is required', 200),
  /** What manufacturer partners supply under this code (the partners page). */
  partnerSupply: optionalPlainText(200),
});

/** A contract vehicle the business holds: "GSA MAS" and its contract number. */
const contractVehicleSchema = z.object({
  name: requiredPlainText('Contract vehicle name is required', 120),
  number: optionalPlainText(60),
});

/** A Product Service Code: 4 letters and digits (for example R408, 7030). */
const pscCodeSchema = z
  .string({ error: 'PSC code must be 4 letters and digits' })
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => /^[A-Z0-9]{4}$/.test(v), 'PSC code must be 4 letters and digits');

const complianceStatementSchema = z.preprocess(
  // A bare statement (the API before statuses) takes the status its words imply.
  (v) => (typeof v === 'string' ? { text: v, status: impliedComplianceStatus(v) } : v),
  z.object(
    {
      text: requiredPlainText('Statement is required', 300),
      status: z.enum(COMPLIANCE_STATUSES, { error: 'Status must be Yes, Pending, On request or No' }),
    },
    { error: 'Statement is required' },
  ),
);
export type ComplianceStatement = z.output<typeof complianceStatementSchema>;

/** One figure: absent leaves it as stored, empty clears it (the page then leaves it out). */
const figure = z
  .string()
  .trim()
  .max(20, 'Must be at most 20 characters')
  .nullish()
  .transform((v) => (v === undefined ? undefined : v ? v : null));

/** The marketing figures of SPEC 9, each editable (keys fixed: the pages place them). */
const figuresSchema = z.object(
  Object.fromEntries(Object.keys(MARKETING_FIGURES).map((k) => [k, figure])) as Record<keyof typeof MARKETING_FIGURES, typeof figure>,
);

export const companyProfileSchema = z.object({
  legalName: requiredPlainText('Legal name is required', 200),
  shortName: requiredPlainText('Short name is required', 60),
  /** With an uploaded logo, the header shows the short name beside it only when this is on. */
  showNameWithLogo: z.boolean().default(false),
  tagline: optionalPlainText(300),
  description: optionalPlainText(LIMITS.mediumText),
  uei: upperOptional(UEI_PATTERN, 'UEI must be 12 letters and digits (SAM.gov Unique Entity ID)'),
  cageCode: upperOptional(CAGE_PATTERN, 'CAGE code must be 5 letters and digits'),
  /** E.g. 'WOSB / Small Business'. */
  setAside: optionalPlainText(200),
  samActive: z.boolean().default(false),
  samExpiresOn: optionalDate('SAM expiry date must be a date (YYYY-MM-DD)'),
  certifications: list(certificationSchema, 20, 'certifications'),
  procurementTypes: list(requiredPlainText('Procurement type is required', 200), 20, 'procurement types'),
  naicsCodes: list(naicsCodeSchema, 30, 'NAICS codes'),
  procurementEmail: optionalEmail('Procurement e-mail must be a valid email address'),
  complianceStatements: list(complianceStatementSchema, 20, 'compliance statements'),
  /** Contract vehicles held (GSA MAS, BPAs, IDIQs): the capability statement lists them. */
  contractVehicles: list(contractVehicleSchema, 12, 'contract vehicles'),
  /** Product Service Codes, beside the NAICS codes on the capability statement. */
  pscCodes: list(pscCodeSchema, 20, 'PSC codes'),
  /** The statement's point of contact (the founder, About tab): a direct e-mail and phone. */
  contactPersonEmail: optionalEmail('Point of contact e-mail must be a valid email address'),
  contactPersonPhone: optionalPlainText(50),
  figures: figuresSchema.prefault({}),
  /**
   * Whether the owner has confirmed the figures: until then the pages leave them out. Saving a
   * changed figure confirms them too (services/company-profile.ts).
   */
  figuresConfirmed: z.boolean().default(false),
});

/** What the Company tab's form edits. */
export type CompanyFormValues = z.output<typeof companyProfileSchema>;

/** The longest founder's story on /about. */
const FOUNDER_STORY_MAX = 1000;

/** Leadership on /about (About tab): each part left out of the page until set. */
export const leadershipSchema = z.object({
  founderName: optionalPlainText(120),
  founderTitle: optionalPlainText(120),
  founderPhoto: optionalUrl(),
  founderPhotoAlt: altText(),
  founderStory: optionalPlainText(FOUNDER_STORY_MAX),
});

/** The whole stored profile: the Company tab's fields and the About tab's leadership. */
export const companyRecordSchema = companyProfileSchema.extend(leadershipSchema.shape);
export type CompanyProfileValues = z.output<typeof companyRecordSchema>;

/** PATCH /api/admin/company-profile: any subset, with the version the edit was based on. */
export const companyProfilePatchSchema = patchSchema(companyRecordSchema);
