import { and, asc, desc, eq, getTableColumns, inArray, ne, sql } from 'drizzle-orm';
import type { ContentSection, DocumentCategory, FeatureSection, PublicContentSection } from '#shared/constants.ts';
import { PUBLIC_CONTENT_SECTIONS } from '#shared/constants.ts';
import { STARTING_COMPANY } from '#shared/company.ts';
import { withoutPlaceholders } from '#shared/placeholders.ts';
import { capabilityStatementSettingSchema } from '#shared/schemas/capability-statement.ts';
import { siteLaunchSchema } from '#shared/schemas/site-launch.ts';
import { GENERATED_STATEMENT } from '#shared/documents.ts';
import type { Db, Tx } from '../db/client';
import {
  appMeta,
  companyProfile,
  contactInfo,
  contentBlocks,
  documents,
  features,
  headerContent,
  headerCta,
  insights,
  pastPerformance,
  services,
  type CompanyProfile,
  type ContentBlock,
} from '../db/schema';
import { HttpError } from '../http';

/** The spec names the flag both `active` and `isActive`; answers carry both. */
export function presentBlock(block: ContentBlock) {
  return { ...block, active: block.isActive };
}

export function isPublicSection(section: string): section is PublicContentSection {
  return (PUBLIC_CONTENT_SECTIONS as readonly string[]).includes(section);
}

/** The newest active block of a section, or null. */
export async function getActiveBlock(db: Db | Tx, section: ContentSection) {
  const [row] = await db
    .select()
    .from(contentBlocks)
    .where(and(eq(contentBlocks.section, section), eq(contentBlocks.isActive, true)))
    .orderBy(desc(contentBlocks.updatedAt), desc(contentBlocks.id))
    .limit(1);
  return row ? presentBlock(row) : null;
}

export async function getActiveHeader(db: Db | Tx) {
  const [row] = await db
    .select()
    .from(headerContent)
    .where(eq(headerContent.isActive, true))
    .orderBy(desc(headerContent.updatedAt), desc(headerContent.id))
    .limit(1);
  return row ? { ...row, active: row.isActive } : null;
}

export async function getActiveHeaderCta(db: Db | Tx) {
  const [row] = await db.select().from(headerCta).where(eq(headerCta.isActive, true)).limit(1);
  return row ? { ...row, active: row.isActive } : null;
}

/** `GET /api/content/{section}/active` for every section; unknown sections are a 404. */
export async function getActiveContent(db: Db, section: string) {
  if (!isPublicSection(section)) throw new HttpError(404, `Unknown content section: ${section}`);
  if (section === 'header') return getActiveHeader(db);
  if (section === 'header-cta') return getActiveHeaderCta(db);
  return getActiveBlock(db, section);
}

export async function listFeatures(db: Db | Tx, section: FeatureSection, opts: { activeOnly: boolean }) {
  const where = opts.activeOnly ? and(eq(features.section, section), eq(features.isActive, true)) : eq(features.section, section);
  return db.select().from(features).where(where).orderBy(asc(features.displayOrder), asc(features.id));
}

export async function listServices(db: Db | Tx, opts: { activeOnly: boolean }) {
  return db
    .select()
    .from(services)
    .where(opts.activeOnly ? eq(services.isActive, true) : undefined)
    .orderBy(asc(services.displayOrder), asc(services.id));
}

/** Newest first: published ones by publication date, drafts (admin lists) by creation. */
const INSIGHT_ORDER = [sql`${insights.publicationDate} desc nulls last`, desc(insights.createdAt), desc(insights.id)];

export async function listInsights(db: Db | Tx, opts: { publishedOnly: boolean }) {
  return db
    .select()
    .from(insights)
    .where(opts.publishedOnly ? eq(insights.isPublished, true) : undefined)
    .orderBy(...INSIGHT_ORDER);
}

export type InsightRow = Awaited<ReturnType<typeof listInsights>>[number];

/**
 * GET /api/insights: the published insights, newest first, without their text (each article's
 * page has it; the whole section's text in one answer was a megabyte for a few dozen articles).
 */
export async function listPublishedInsightSummaries(db: Db | Tx) {
  const { content: _text, ...columns } = getTableColumns(insights);
  return db
    .select(columns)
    .from(insights)
    .where(eq(insights.isPublished, true))
    .orderBy(...INSIGHT_ORDER);
}

/**
 * The insights that get a page (published, and not named like the section's not-found page): what
 * a content snapshot holds. Filtered here rather than by each page, which would read two fields of
 * every article for every page of /insights.
 */
const HAS_PAGE = and(eq(insights.isPublished, true), ne(insights.slug, '404'));

/** The insights that get a page, newest first. */
export async function insightsWithPages(db: Db | Tx): Promise<InsightRow[]> {
  return db
    .select()
    .from(insights)
    .where(HAS_PAGE)
    .orderBy(...INSIGHT_ORDER);
}

/**
 * The insights that get a page in `insightsWithPages` order, each with its row version: Postgres's
 * `xmin`, the transaction that wrote the row as it is now, which every UPDATE changes whatever code
 * (or hand) made it. Cheap at any article count: no article text.
 */
export async function insightPageStamps(db: Db | Tx): Promise<{ id: number; stamp: string }[]> {
  return db
    .select({ id: insights.id, stamp: sql<string>`${insights}.xmin::text` })
    .from(insights)
    .where(HAS_PAGE)
    .orderBy(...INSIGHT_ORDER);
}

/** Whole insight rows by id (any order). */
export async function insightsById(db: Db | Tx, ids: number[]): Promise<InsightRow[]> {
  return ids.length === 0 ? [] : db.select().from(insights).where(inArray(insights.id, ids));
}

export async function listDocuments(db: Db | Tx, opts: { activeOnly: boolean }) {
  return db
    .select()
    .from(documents)
    .where(opts.activeOnly ? eq(documents.isActive, true) : undefined)
    .orderBy(asc(documents.displayOrder), desc(documents.createdAt), desc(documents.id));
}

/** Past-performance entries in the owner's display order (active ones only for visitors and the pages). */
export async function listPastPerformance(db: Db | Tx, opts: { activeOnly: boolean }) {
  return db
    .select()
    .from(pastPerformance)
    .where(opts.activeOnly ? eq(pastPerformance.isActive, true) : undefined)
    .orderBy(asc(pastPerformance.displayOrder), asc(pastPerformance.id));
}

/** The public capability or onboarding document: the first active one of that category. */
async function uploadedPublicDocument(db: Db, category: Extract<DocumentCategory, 'capability' | 'onboarding'>) {
  const [row] = await db
    .select({
      id: documents.id,
      title: documents.title,
      filePath: documents.filePath,
      fileName: documents.fileName,
      fileSize: documents.fileSize,
      fileType: documents.fileType,
    })
    .from(documents)
    .where(and(eq(documents.category, category), eq(documents.isActive, true)))
    .orderBy(asc(documents.displayOrder), desc(documents.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * The public capability statement or OEM onboarding kit, or null: for the capability statement the
 * one written from the site's data while the site offers it (`usesGeneratedStatement`).
 */
export async function getPublicDocument(db: Db, category: Extract<DocumentCategory, 'capability' | 'onboarding'>) {
  const uploaded = await uploadedPublicDocument(db, category);
  if (category !== 'capability') return uploaded;
  const { useGenerated } = await getCapabilityStatementSetting(db);
  if (!(useGenerated ?? !uploaded)) return uploaded;
  const { title, filePath, fileName } = GENERATED_STATEMENT;
  return { id: null, title, filePath, fileName, fileSize: null, fileType: 'application/pdf' };
}

/** The active contact record as the public sees it: placeholder fields are not displayed (src/shared/placeholders.ts). */
export async function getActiveContactInfo(db: Db | Tx) {
  const [row] = await db.select().from(contactInfo).where(eq(contactInfo.isActive, true)).limit(1);
  return row ? withoutPlaceholders(row) : null;
}

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

/** The app_meta row of the site's launch: absent on an install from before launching existed. */
export const SITE_LAUNCH_KEY = 'site-launch';

/**
 * Whether search engines may index the site. A new install is seeded hidden; an install upgraded
 * from before launching existed has no row and is launched (a live business is never de-indexed).
 */
export async function getSiteLaunch(db: Db | Tx): Promise<{ launched: boolean }> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, SITE_LAUNCH_KEY));
  const parsed = siteLaunchSchema.safeParse(row?.value);
  return { launched: parsed.success ? parsed.data.launched : true };
}

/** The app_meta row of the Documents tab's "Use generated statement". */
export const CAPABILITY_STATEMENT_KEY = 'capability-statement';

/** The stored choice; null until the owner sets it (or when the row does not read as one). */
export async function getCapabilityStatementSetting(db: Db | Tx): Promise<{ useGenerated: boolean | null }> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, CAPABILITY_STATEMENT_KEY));
  const parsed = capabilityStatementSettingSchema.safeParse(row?.value);
  return { useGenerated: parsed.success ? parsed.data.useGenerated : null };
}
