import { and, eq, sql } from 'drizzle-orm';
import * as F from '#shared/fallbacks.ts';
import type { ContentSection } from '#shared/constants.ts';
import { generatePassword } from '../password';
import { env } from '../env';
import { log } from '../log';
import { ensureCompanyProfile } from '../content/public-content';
import { startHidden } from './site-launch';
import { recordStarterContent } from './starter-content';
import { countAdmins, createUser } from './users';
import type { Db } from '../db/client';
import { appMeta, contactInfo, contentBlocks, emailTemplates, features, headerContent, headerCta, insights, services } from '../db/schema';
import { STARTER_BLOCKS } from './starter-blocks';
import { STARTING_INSIGHTS } from './starting-insights';

export interface SeedResult {
  inserted: string[];
  admin?: { username: string; email: string; generatedPassword?: string };
}

const SEEDED_KEY = 'seeded_at';

async function hasBlock(db: Db, section: ContentSection) {
  const [row] = await db.select({ id: contentBlocks.id }).from(contentBlocks).where(eq(contentBlocks.section, section)).limit(1);
  return Boolean(row);
}

/**
 * Stores the spec's fallback copy as real content and makes the first admin. Each row is keyed
 * by its natural identity (section, or section + title), so running it again only re-applies
 * what is missing. `onlyOnce` (server start) skips everything once a seed has completed, so
 * content an administrator deleted on purpose does not come back at every restart.
 */
export async function seed(db: Db, opts: { onlyOnce?: boolean } = {}): Promise<SeedResult> {
  const result: SeedResult = { inserted: [] };
  // Before the once-only check: an install seeded before the profile existed gets it too.
  if (await ensureCompanyProfile(db)) result.inserted.push('company_profile');
  if (await ensureFederalProducts(db)) result.inserted.push('feature:federal');
  const [mark] = await db.select().from(appMeta).where(eq(appMeta.key, SEEDED_KEY));
  if (opts.onlyOnce && mark) {
    await ensureAdmin(db, result);
    // An install from before starter content was recorded: what is still exactly the seed.
    if ((await recordStarterContent(db)) > 0) result.inserted.push('starter-content');
    return result;
  }

  for (const block of STARTER_BLOCKS) {
    if (await hasBlock(db, block.section)) continue;
    await db.insert(contentBlocks).values({ ...block, isActive: true });
    result.inserted.push(`content:${block.section}`);
  }

  const [header] = await db.select({ id: headerContent.id }).from(headerContent).limit(1);
  if (!header) {
    await db.insert(headerContent).values({ ...F.FALLBACK_HEADER, isActive: true });
    result.inserted.push('header');
  }
  const [cta] = await db.select({ id: headerCta.id }).from(headerCta).limit(1);
  if (!cta) {
    await db.insert(headerCta).values({ ...F.FALLBACK_HEADER_CTA, isActive: true });
    result.inserted.push('header-cta');
  }

  const cards = [
    ...F.FALLBACK_FEATURES.map((f, i) => ({ ...f, section: 'home' as const, displayOrder: i })),
    ...F.FALLBACK_ABOUT_FEATURES.map((f, i) => ({ ...f, section: 'about' as const, displayOrder: i })),
  ];
  for (const card of cards) {
    const [row] = await db
      .select({ id: features.id })
      .from(features)
      .where(and(eq(features.section, card.section), eq(features.title, card.title)))
      .limit(1);
    if (row) continue;
    await db.insert(features).values({ ...card, isActive: true });
    result.inserted.push(`feature:${card.section}:${card.title}`);
  }

  for (const [i, s] of F.FALLBACK_SERVICES.entries()) {
    const [row] = await db.select({ id: services.id }).from(services).where(eq(services.title, s.title)).limit(1);
    if (row) continue;
    await db.insert(services).values({ ...s, displayOrder: i, isActive: true });
    result.inserted.push(`service:${s.title}`);
  }

  // Keyed by slug: an insight an administrator has written or edited under that slug is kept.
  for (const article of STARTING_INSIGHTS) {
    const [row] = await db.select({ id: insights.id }).from(insights).where(eq(insights.slug, article.slug)).limit(1);
    if (row) continue;
    await db.insert(insights).values({ ...article, publicationDate: new Date(article.publicationDate) });
    result.inserted.push(`insight:${article.slug}`);
  }

  const [info] = await db.select({ id: contactInfo.id }).from(contactInfo).limit(1);
  if (!info) {
    await db.insert(contactInfo).values({ ...F.FALLBACK_CONTACT_INFO, isActive: true });
    result.inserted.push('contact-info');
  }

  const templates = [
    { templateType: 'contact_notification' as const, name: 'New contact notification' },
    { templateType: 'contact_response' as const, name: 'Contact response' },
  ];
  for (const t of templates) {
    const [row] = await db
      .select({ id: emailTemplates.id })
      .from(emailTemplates)
      .where(eq(emailTemplates.templateType, t.templateType))
      .limit(1);
    if (row) continue;
    await db.insert(emailTemplates).values({ ...F.DEFAULT_TEMPLATE, ...t, signatureWebsite: env().SITE_URL, isActive: true });
    result.inserted.push(`template:${t.templateType}`);
  }

  await ensureAdmin(db, result);
  // A new install starts hidden from search engines until its owner launches it; one seeded
  // before (an upgrade, a second seed) keeps its state: no row there means launched.
  if (!mark) await startHidden(db);
  // Everything just seeded is starter content until the owner edits it (services/starter-content.ts).
  if ((await recordStarterContent(db)) > 0) result.inserted.push('starter-content');
  await db
    .insert(appMeta)
    .values({ key: SEEDED_KEY, value: sql`to_jsonb(now())` })
    .onConflictDoNothing();
  return result;
}

const FEDERAL_PRODUCTS_KEY = 'federal_products_seeded';

/**
 * The federal page's product cards, once per install (an install seeded before the cards became
 * editable gets the text its page showed); cards the owner later deletes do not come back.
 */
async function ensureFederalProducts(db: Db): Promise<boolean> {
  const [mark] = await db.select().from(appMeta).where(eq(appMeta.key, FEDERAL_PRODUCTS_KEY));
  if (mark) return false;
  const [row] = await db.select({ id: features.id }).from(features).where(eq(features.section, 'federal')).limit(1);
  if (!row) {
    await db
      .insert(features)
      .values(F.FALLBACK_FEDERAL_PRODUCTS.map((card, i) => ({ ...card, section: 'federal' as const, displayOrder: i, isActive: true })));
  }
  await db
    .insert(appMeta)
    .values({ key: FEDERAL_PRODUCTS_KEY, value: sql`to_jsonb(now())` })
    .onConflictDoNothing();
  return !row;
}

/** The first admin, from ADMIN_* variables or with a generated password printed once. */
async function ensureAdmin(db: Db, result: SeedResult): Promise<void> {
  if ((await countAdmins(db)) > 0) return;
  const e = env();
  const username = e.ADMIN_USERNAME ?? 'admin';
  const email = e.ADMIN_EMAIL ?? `${username}@localhost`;
  const generated = e.ADMIN_PASSWORD ? undefined : generatePassword();
  await createUser(db, { username, email, password: e.ADMIN_PASSWORD ?? generated!, role: 'admin', name: username });
  result.inserted.push(`admin:${username}`);
  result.admin = { username, email, generatedPassword: generated };
  log.info('first administrator created', { username, email });
}

/** Prints the generated first-admin password once, where an operator will see it. */
export function announceAdmin(result: SeedResult): void {
  if (!result.admin?.generatedPassword) return;
  const { username, generatedPassword } = result.admin;
  const line = '='.repeat(72);
  console.log(
    `\n${line}\n  First administrator created.\n  Sign in at /auth with\n    username: ${username}\n    password: ${generatedPassword}\n  This password is shown only once: change it from the Account tab.\n${line}\n`,
  );
}
