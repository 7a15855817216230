import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import type { CompanyProfileValues } from '#shared/schemas/company-profile.ts';
import { timestamps, version } from './columns';

/** The business's identity (one row): see src/shared/schemas/company-profile.ts. */
export const companyProfile = pgTable(
  'company_profile',
  {
    id: serial('id').primaryKey(),
    /** Always true, and unique: the table holds one row. */
    singleton: boolean('singleton').notNull().default(true).unique(),
    legalName: text('legal_name').notNull(),
    shortName: text('short_name').notNull(),
    /** With an uploaded logo, show the short name beside it in the header (off: the logo alone). */
    showNameWithLogo: boolean('show_name_with_logo').notNull().default(false),
    tagline: text('tagline'),
    description: text('description'),
    uei: text('uei'),
    cageCode: text('cage_code'),
    setAside: text('set_aside'),
    samActive: boolean('sam_active').notNull().default(false),
    samExpiresOn: date('sam_expires_on', { mode: 'string' }),
    certifications: jsonb('certifications').$type<CompanyProfileValues['certifications']>().notNull().default([]),
    procurementTypes: jsonb('procurement_types').$type<string[]>().notNull().default([]),
    naicsCodes: jsonb('naics_codes').$type<CompanyProfileValues['naicsCodes']>().notNull().default([]),
    procurementEmail: text('procurement_email'),
    complianceStatements: jsonb('compliance_statements').$type<CompanyProfileValues['complianceStatements']>().notNull().default([]),
    contractVehicles: jsonb('contract_vehicles').$type<CompanyProfileValues['contractVehicles']>().notNull().default([]),
    pscCodes: jsonb('psc_codes').$type<CompanyProfileValues['pscCodes']>().notNull().default([]),
    contactPersonEmail: text('contact_person_email'),
    contactPersonPhone: text('contact_person_phone'),
    figures: jsonb('figures')
      .$type<CompanyProfileValues['figures']>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** The pages show the figures only once the owner confirmed them (a new install's are samples). */
    figuresConfirmed: boolean('figures_confirmed').notNull().default(false),
    /** Leadership on /about (About tab). */
    founderName: text('founder_name'),
    founderTitle: text('founder_title'),
    founderPhoto: text('founder_photo'),
    founderPhotoAlt: text('founder_photo_alt'),
    founderStory: text('founder_story'),
    ...version,
    ...timestamps,
  },
  (t) => [check('company_profile_singleton', sql`${t.singleton}`)],
);
export type CompanyProfile = typeof companyProfile.$inferSelect;

/**
 * Past performance (Company tab): contracts and orders the business delivered, shown as cards on
 * /services/federal, /about and the home page. See src/shared/schemas/past-performance.ts.
 */
export const pastPerformance = pgTable(
  'past_performance',
  {
    id: serial('id').primaryKey(),
    customer: text('customer').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    /** YYYY-MM. */
    periodStart: text('period_start').notNull(),
    /** YYYY-MM; null while the work is ongoing. */
    periodEnd: text('period_end'),
    contractType: text('contract_type'),
    /** Whole dollars. */
    value: bigint('value', { mode: 'number' }),
    showValue: boolean('show_value').notNull().default(false),
    naicsCode: text('naics_code'),
    isActive: boolean('is_active').notNull().default(true),
    displayOrder: integer('display_order').notNull().default(0),
    ...version,
    ...timestamps,
  },
  (t) => [
    check('past_performance_display_order_nonneg', sql`${t.displayOrder} >= 0`),
    check('past_performance_period', sql`${t.periodEnd} is null or ${t.periodEnd} >= ${t.periodStart}`),
    index('past_performance_active_idx').on(t.isActive, t.displayOrder),
  ],
);
export type PastPerformance = typeof pastPerformance.$inferSelect;
