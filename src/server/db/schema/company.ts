import { sql } from 'drizzle-orm';
import { boolean, check, date, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
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
    complianceStatements: jsonb('compliance_statements').$type<string[]>().notNull().default([]),
    figures: jsonb('figures')
      .$type<CompanyProfileValues['figures']>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    ...version,
    ...timestamps,
  },
  (t) => [check('company_profile_singleton', sql`${t.singleton}`)],
);
export type CompanyProfile = typeof companyProfile.$inferSelect;
