import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { STARTING_COMPANY } from '#shared/company.ts';
import * as F from '#shared/fallbacks.ts';
import type { StarterItem, StarterPage } from '#shared/launch-checklist.ts';
import type { Db, Tx } from '../db/client';
import { appMeta, companyProfile, contentBlocks, features, headerContent, insights, services } from '../db/schema';
import { STARTER_BLOCKS } from './starter-blocks';
import { STARTING_INSIGHTS } from './starting-insights';
import { HttpError } from '../http';
import { recordAudit, type Actor } from './audit';

/*
 * Starter content: what a new install's first start stores (the specification's copy about a
 * fictional company), known item by item so that nothing of it goes public unnoticed. When the
 * seed has run, each seeded record (and each company field) is recorded with a digest of the text
 * visitors see. An item is starter content while its record is live (active, published) and its
 * digest is still the recorded one: the owner's first edit clears it, with no box to tick. She may
 * also keep an item as it is ("Keep as mine"), which forgets it.
 *
 * The record is made once per install. An install upgraded from before this existed gets it at its
 * first start, for the items that are still byte for byte the seed: nothing the owner wrote is
 * ever taken for starter content.
 */

const KEY = 'starter-content';

interface Stored {
  /** Item key → digest of its seeded text, or KEPT once the owner kept it as it is. */
  items: Record<string, string>;
}

/** An item the owner kept as it is: never starter content again, still counted as done. */
const KEPT = 'kept';

/** JSON with object keys sorted (jsonb keeps its own key order) and missing values as null. */
function stable(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The digest of `fields` of `row`, in that order. */
function digest(row: Record<string, unknown>, fields: readonly string[]): string {
  return createHash('sha256')
    .update(stable(fields.map((f) => row[f] ?? null)))
    .digest('base64url')
    .slice(0, 22);
}

/** An item as the database holds it now. */
interface Current extends Omit<StarterItem, 'text'> {
  label: string;
  /** Shown on a public page now (active, published). */
  live: boolean;
  digest: string;
  /** The digests the seed would give it (an upgraded install records only an item that has one). */
  seeded: Set<string>;
}

const HEADER_TEXT = ['title', 'subtitle', 'boxHeading', 'boxContent'] as const;
const HEADER_IMAGE = ['backgroundImage'] as const;
const BLOCK = ['title', 'content', 'buttonText'] as const;
const CARD = ['title', 'description', 'icon'] as const;
const INSIGHT = ['title', 'excerpt', 'content', 'authorName', 'authorTitle'] as const;

const seededSet = (rows: readonly Record<string, unknown>[], fields: readonly string[]) => new Set(rows.map((r) => digest(r, fields)));

const BLOCK_PAGES: Record<string, { page: StarterPage; tab: StarterItem['tab']; label: string }> = {
  intro: { page: 'Home', tab: 'homepage', label: 'The home page introduction' },
  home_cta: { page: 'Home', tab: 'homepage', label: 'The home page call to action' },
  home_services: { page: 'Home', tab: 'homepage', label: 'The home page services block' },
  about: { page: 'About', tab: 'about', label: 'The About page text' },
  about_mission: { page: 'About', tab: 'about', label: 'The mission statement' },
  services_hero: { page: 'Services', tab: 'services', label: 'The Services page introduction' },
  services_overview: { page: 'Services', tab: 'services', label: 'The Services page closing section' },
};

const FEATURE_PAGES = {
  home: { page: 'Home', tab: 'homepage', noun: 'home page feature card', seed: F.FALLBACK_FEATURES },
  about: { page: 'About', tab: 'about', noun: '“Why Choose Us” card', seed: F.FALLBACK_ABOUT_FEATURES },
  federal: { page: 'Federal capabilities', tab: 'services', noun: 'product capability card', seed: F.FALLBACK_FEDERAL_PRODUCTS },
} as const satisfies Record<string, { page: StarterPage; tab: StarterItem['tab']; noun: string; seed: readonly object[] }>;

/** The company fields the seed fills, where visitors see them, and their names in the Company tab. */
const COMPANY_FIELDS: { field: keyof typeof STARTING_COMPANY; page: StarterPage; label: string }[] = [
  { field: 'legalName', page: 'Every page', label: 'The legal company name' },
  { field: 'shortName', page: 'Every page', label: 'The short company name' },
  { field: 'tagline', page: 'Every page', label: 'The company tagline' },
  { field: 'description', page: 'Every page', label: 'The company description' },
  { field: 'setAside', page: 'Federal capabilities', label: 'The set-aside status' },
  { field: 'procurementTypes', page: 'Federal capabilities', label: 'The procurement types' },
  { field: 'naicsCodes', page: 'Federal capabilities', label: 'The NAICS codes' },
  { field: 'complianceStatements', page: 'Federal capabilities', label: 'The compliance statements' },
];
const FIGURES = ['figures', 'figuresConfirmed'] as const;

const quoted = (title: string) => `“${title.length > 60 ? `${title.slice(0, 59)}…` : title}”`;

/** Every item that can be starter content, as the database holds it now. */
async function currentItems(db: Db | Tx): Promise<Current[]> {
  const items: Current[] = [];
  const [company] = await db.select().from(companyProfile).where(eq(companyProfile.singleton, true));
  if (company) {
    const row = company as unknown as Record<string, unknown>;
    for (const { field, page, label } of COMPANY_FIELDS)
      items.push({
        key: `company:${field}`,
        page,
        label,
        tab: 'company',
        field,
        live: true,
        digest: digest(row, [field]),
        seeded: seededSet([STARTING_COMPANY as unknown as Record<string, unknown>], [field]),
      });
    items.push({
      key: 'company:figures',
      page: 'Home',
      label: 'The home page figures (contracts, on-time delivery, savings…) are samples, hidden until you confirm or change them',
      tab: 'company',
      field: 'figures',
      live: true,
      digest: digest(row, FIGURES),
      seeded: seededSet([STARTING_COMPANY as unknown as Record<string, unknown>], FIGURES),
    });
  }

  for (const h of await db.select().from(headerContent)) {
    const row = h as unknown as Record<string, unknown>;
    const seed = [F.FALLBACK_HEADER as unknown as Record<string, unknown>];
    items.push({
      key: `header:${h.id}`,
      page: 'Home',
      label: 'The home page title and subtitle',
      tab: 'homepage',
      record: { kind: 'header', id: h.id },
      live: h.isActive,
      digest: digest(row, HEADER_TEXT),
      seeded: seededSet(seed, HEADER_TEXT),
    });
    items.push({
      key: `header-image:${h.id}`,
      page: 'Home',
      label: 'The home page background image',
      tab: 'homepage',
      record: { kind: 'header', id: h.id },
      live: h.isActive,
      digest: digest(row, HEADER_IMAGE),
      seeded: seededSet(seed, HEADER_IMAGE),
    });
  }

  for (const b of await db.select().from(contentBlocks)) {
    const where = BLOCK_PAGES[b.section];
    if (!where) continue;
    items.push({
      key: `block:${b.id}`,
      page: where.page,
      label: where.label,
      tab: where.tab,
      record: { kind: 'block', id: b.id, section: b.section },
      live: b.isActive,
      digest: digest(b as unknown as Record<string, unknown>, BLOCK),
      seeded: seededSet(
        STARTER_BLOCKS.filter((s) => s.section === b.section),
        BLOCK,
      ),
    });
  }

  for (const c of await db.select().from(features)) {
    const where = FEATURE_PAGES[c.section as keyof typeof FEATURE_PAGES];
    if (!where) continue;
    items.push({
      key: `feature:${c.id}`,
      page: where.page,
      label: `The ${where.noun} ${quoted(c.title)}`,
      tab: where.tab,
      record: { kind: 'feature', id: c.id, section: c.section },
      live: c.isActive,
      digest: digest(c as unknown as Record<string, unknown>, CARD),
      seeded: seededSet(where.seed, CARD),
    });
  }

  for (const s of await db.select().from(services))
    items.push({
      key: `service:${s.id}`,
      page: 'Services',
      label: `The service ${quoted(s.title)}`,
      tab: 'services',
      record: { kind: 'service', id: s.id },
      live: s.isActive,
      digest: digest(s as unknown as Record<string, unknown>, CARD),
      seeded: seededSet(F.FALLBACK_SERVICES, CARD),
    });

  const articles = await db
    .select({
      id: insights.id,
      title: insights.title,
      excerpt: insights.excerpt,
      content: insights.content,
      authorName: insights.authorName,
      authorTitle: insights.authorTitle,
      isPublished: insights.isPublished,
    })
    .from(insights);
  for (const a of articles)
    items.push({
      key: `insight:${a.id}`,
      page: 'Insights',
      label: `The article ${quoted(a.title)}`,
      tab: 'blog',
      record: { kind: 'insight', id: a.id },
      live: a.isPublished,
      digest: digest(a, INSIGHT),
      seeded: seededSet(STARTING_INSIGHTS as unknown as Record<string, unknown>[], INSIGHT),
    });
  return items;
}

async function readStored(db: Db | Tx): Promise<Stored | undefined> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, KEY));
  const value = row?.value as Stored | undefined;
  return value && typeof value.items === 'object' && value.items !== null ? value : undefined;
}

/**
 * Records the starter content once per install: each item still exactly as the seed wrote it
 * (everything, right after a first seed; on an upgraded install, only what nobody changed).
 * Answers how many items were recorded (0 when the record existed).
 */
export async function recordStarterContent(db: Db): Promise<number> {
  if (await readStored(db)) return 0;
  const items: Record<string, string> = {};
  for (const item of await currentItems(db)) if (item.seeded.has(item.digest)) items[item.key] = item.digest;
  const inserted = await db
    .insert(appMeta)
    .values({ key: KEY, value: { items } satisfies Stored })
    .onConflictDoNothing()
    .returning({ key: appMeta.key });
  return inserted.length > 0 ? Object.keys(items).length : 0;
}

/** What makes one item's sentence in the checklist. */
function starterText(item: Current): string {
  if (item.key === 'company:figures') return `${item.label}.`;
  if (item.key.startsWith('header-image:')) return `${item.label} is still the starter picture.`;
  return `${item.label} is still the starter text.`;
}

/** Starter items still on the public site, and how many were recorded in all. */
export async function liveStarterItems(db: Db | Tx): Promise<{ live: StarterItem[]; recorded: number }> {
  const stored = await readStored(db);
  if (!stored) return { live: [], recorded: 0 };
  const live: StarterItem[] = [];
  for (const item of await currentItems(db)) {
    if (!item.live || stored.items[item.key] !== item.digest) continue;
    const { key, page, tab, field, record } = item;
    live.push({ key, page, tab, text: starterText(item), ...(field ? { field } : {}), ...(record ? { record } : {}) });
  }
  return { live, recorded: Object.keys(stored.items).length };
}

/** "Keep as mine": the item is the owner's now and leaves the checklist. Audited. */
export async function keepStarterItem(db: Db, key: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const stored = await readStored(tx);
    const item = (await liveStarterItems(tx)).live.find((i) => i.key === key);
    if (!stored || !item) throw new HttpError(404, 'That item is not starter content on the site');
    await tx
      .update(appMeta)
      .set({ value: { items: { ...stored.items, [key]: KEPT } } satisfies Stored })
      .where(eq(appMeta.key, KEY));
    await recordAudit(tx, actor, {
      action: 'update',
      entity: 'starter-content',
      entityId: key,
      before: { starter: true },
      after: { starter: false },
      subject: item.text.replace(/ is still the starter (text|picture)\.$/, ''),
    });
  });
}
