import { env } from '../env';
import fs from 'node:fs/promises';
import { inArray } from 'drizzle-orm';
import { CONTENT_SECTIONS, type ContentSection } from '#shared/constants.ts';
import { lastExpiry } from '#shared/company.ts';
import { articleImageUrls } from '#shared/markdown.ts';
import type { ImageMeta } from '#shared/images.ts';
import { closeDb, getDb, type Db, type Tx } from '../db/client';
import { deepFreeze } from './frozen';
import { uploads } from '../db/schema';
import {
  getActiveBlock,
  getCapabilityStatementSetting,
  getSiteLaunch,
  getActiveContactInfo,
  getActiveHeader,
  getActiveHeaderCta,
  getCompanyProfile,
  listDocuments,
  listFeatures,
  insightPageStamps,
  insightsById,
  insightsWithPages,
  listPastPerformance,
  type InsightRow,
  listServices,
} from './public-content';

type Awaited2<T> = T extends Promise<infer U> ? U : T;
/** Dates become ISO strings: the snapshot travels as JSON between the server and the build. */
type Jsonify<T> = T extends Date ? string : T extends (infer U)[] ? Jsonify<U>[] : T extends object ? { [K in keyof T]: Jsonify<T[K]> } : T;

/**
 * The intrinsic size and WebP variant widths of every uploaded raster image among `urls`, by URL,
 * in one query. URLs without an upload row (pasted, seeded, default images) are simply absent.
 */
async function imageMetadata(db: Db | Tx, urls: Iterable<string | null | undefined>): Promise<Record<string, ImageMeta>> {
  const wanted = [...new Set([...urls].filter((u): u is string => Boolean(u)))];
  if (wanted.length === 0) return {};
  const rows = await db
    .select({ url: uploads.url, width: uploads.width, height: uploads.height, variantWidths: uploads.variantWidths })
    .from(uploads)
    .where(inArray(uploads.url, wanted));
  const images: Record<string, ImageMeta> = {};
  for (const r of rows) {
    if (r.url && r.width && r.height) images[r.url] = { width: r.width, height: r.height, variantWidths: r.variantWidths ?? [] };
  }
  return images;
}

/** Changed rows read by id; more are read with the whole list. */
const MAX_STALE_BY_ID = 1000;

/** An insight as a snapshot holds it (dates as ISO strings), and the row version it was read at. */
type InsightEntry = { stamp: string; row: Jsonify<InsightRow> };

/**
 * The insights that get a page, newest first. Only the rows whose version (`insightPageStamps`) is
 * not the one `known` holds are read whole: an edit reads one article, not thousands. Rows read
 * before are taken as the same objects, which lets a publish tell at a glance that nothing under
 * them changed (publish/render.ts).
 */
async function readInsightsWithPages(db: Db | Tx, known: Map<number, InsightEntry> | undefined) {
  const stamps = await insightPageStamps(db);
  const stale = known ? stamps.filter(({ id, stamp }) => known.get(id)?.stamp !== stamp).map(({ id }) => id) : undefined;
  // Past a few thousand changed rows (a restore, a bulk insert) one read of them all is cheaper,
  // and a list of ids that long would pass Postgres's 65,535 bound parameters.
  const fetched = stale && stale.length <= MAX_STALE_BY_ID ? await insightsById(db, stale) : await insightsWithPages(db);
  const fresh = new Map(fetched.map((row) => [row.id, JSON.parse(JSON.stringify(row)) as Jsonify<InsightRow>]));
  const entries = new Map<number, InsightEntry>();
  const list = stamps.map(({ id, stamp }) => {
    const row = fresh.get(id) ?? known?.get(id)?.row;
    // Both reads run in one transaction: a listed row is always there.
    if (!row) throw new Error(`insight ${id} vanished while the snapshot was read`);
    entries.set(id, { stamp, row });
    return row;
  });
  return { list, entries };
}

async function collect(db: Db | Tx, known: Map<number, InsightEntry> | undefined) {
  const blocks = {} as Record<ContentSection, Awaited2<ReturnType<typeof getActiveBlock>>>;
  for (const section of CONTENT_SECTIONS) blocks[section] = await getActiveBlock(db, section);
  const header = await getActiveHeader(db);
  const services = await listServices(db, { activeOnly: true });
  const published = await readInsightsWithPages(db, known);
  const insights = published.list;
  const company = await getCompanyProfile(db);
  const content = {
    generatedAt: new Date(),
    /** The footer's year: part of the content, so a release from last year is rebuilt at start. */
    year: new Date().getFullYear(),
    header,
    headerCta: await getActiveHeaderCta(db),
    blocks,
    homeFeatures: await listFeatures(db, 'home', { activeOnly: true }),
    aboutFeatures: await listFeatures(db, 'about', { activeOnly: true }),
    /** The federal page's Product Capabilities cards. */
    federalFeatures: await listFeatures(db, 'federal', { activeOnly: true }),
    services,
    insights,
    documents: await listDocuments(db, { activeOnly: true }),
    /** The Documents tab's "Use generated statement" (null until the owner sets it). */
    capabilityStatement: await getCapabilityStatementSetting(db),
    /** Whether search engines may index the site: until launched every page is `noindex`. */
    launch: await getSiteLaunch(db),
    /** Active past-performance entries, in the owner's display order. */
    pastPerformance: await listPastPerformance(db, { activeOnly: true }),
    /** The active business contact record: pages that name the business's e-mail follow it. */
    contactInfo: await getActiveContactInfo(db),
    /** The business's identity (Company tab): names, registrations, NAICS codes, figures, leadership. */
    company,
    /**
     * The latest certification or SAM date passed by today: the pages show neither as current once
     * past, so a release from before it passed is rebuilt at start (services/expiry-watch.ts asks
     * for the rebuild while the server runs).
     */
    lastExpiry: lastExpiry(company),
    /**
     * Whether visits are counted (ANALYTICS, services/visits.ts): /privacy says what is counted. Part
     * of the content, so a release rendered under the other setting is rebuilt at start.
     */
    countsVisits: env().ANALYTICS,
    /** Size and variants of the uploaded images the pages show, by URL (src/shared/images.ts). */
    images: await imageMetadata(db, [
      header?.backgroundImage,
      header?.logoLight,
      header?.logoDark,
      ...Object.values(blocks).flatMap((b) => [b?.imageUrl, b?.backgroundImage]),
      ...services.map((s) => s.imageSrc),
      ...insights.flatMap((i) => [i.featuredImage, ...articleImageUrls(i.content)]),
      company.founderPhoto,
    ]),
  };
  return { content, entries: published.entries };
}

/** Everything a static build reads from the database, at one point in time. */
export type SiteContent = Jsonify<Awaited2<ReturnType<typeof collect>>['content']>;

/**
 * What the last snapshot read from a database holds of its insights, by id: the next snapshot
 * reads only the rows changed since. Its owner (publish/release-store.ts) keeps one per engine.
 */
export interface SnapshotMemo {
  db?: Db;
  insights?: Map<number, InsightEntry>;
}

/**
 * Reads the content from a database at one point in time: every query runs in one REPEATABLE READ
 * transaction, so a save committed while the snapshot is read is either wholly in it or not at all
 * (never the new header beside the old services). Not READ ONLY: a database without its company
 * profile row gets it here. With a `memo`, insights unchanged since its last snapshot of `db` are
 * not read again. The snapshot is deep-frozen: a row two snapshots share is the same, unchanged
 * object, and a publish compares on that (publish/render.ts).
 */
export async function snapshotContent(db: Db, memo?: SnapshotMemo): Promise<SiteContent> {
  const known = memo?.db === db ? memo.insights : undefined;
  const { content: read, entries } = await db.transaction((tx) => collect(tx, known), {
    isolationLevel: 'repeatable read',
  });
  const { generatedAt, insights, ...rest } = read;
  // Dates become ISO strings as they would through JSON; the insights already are.
  const content = {
    generatedAt: generatedAt.toISOString(),
    ...(JSON.parse(JSON.stringify(rest)) as Omit<SiteContent, 'generatedAt' | 'insights'>),
    insights,
  } as SiteContent;
  if (memo) Object.assign(memo, { db, insights: entries });
  return deepFreeze(content);
}

/** Whether `content` is a snapshot as `snapshotContent` read it: frozen, so never changed. */
export const isSnapshot = (content: SiteContent): boolean => Object.isFrozen(content);

/** Whether `row` is an insight as a snapshot read it: frozen, so unchanged in every snapshot that shares it. */
export const isSnapshotRow = (row: object): boolean => Object.isFrozen(row);

/**
 * The content of a static build (`npm run build:static`), read once for all its pages. The one
 * process-wide value of this room (tests/unit/module-state.test.ts names it): a build process
 * renders one content, and the server never reaches it (its pages get the content in `Astro.locals`).
 */
let staticBuild: Promise<SiteContent> | undefined;

/** What a page's `Astro.locals` may carry: the content the publisher renders it from. */
export interface ContentLocals {
  siteContent?: SiteContent;
}

/**
 * The content a page renders. In the server, the publisher (and the insight preview) hand it to
 * the render in `Astro.locals`. A static build (`npm run build:static`) reads the snapshot file
 * named by CONTENT_SNAPSHOT, or else the database itself, once, and closes it: that is only
 * allowed while no server owns the embedded database.
 */
export function loadSiteContent(locals?: ContentLocals): Promise<SiteContent> {
  if (locals?.siteContent) return Promise.resolve(locals.siteContent);
  staticBuild ??= (async () => {
    const file = process.env.CONTENT_SNAPSHOT;
    if (file) return deepFreeze(JSON.parse(await fs.readFile(file, 'utf8')) as SiteContent);
    try {
      return await snapshotContent(await getDb());
    } finally {
      await closeDb();
    }
  })();
  return staticBuild;
}

/**
 * Renders one path of the public site from `content`. `site` is SITE_URL as it is now (canonical
 * links, feeds), not as it was when the bundle was built.
 */
export type RenderPage = (urlPath: string, site: string, content: SiteContent) => Promise<Response>;
