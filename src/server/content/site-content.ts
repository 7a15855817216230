import fs from 'node:fs/promises';
import { CONTENT_SECTIONS, type ContentSection } from '#shared/constants.ts';
import { closeDb, getDb, type Db } from '../db/client';
import {
  getActiveBlock,
  getActiveContactInfo,
  getActiveHeader,
  getActiveHeaderCta,
  listDocuments,
  listFeatures,
  listInsights,
  listServices,
} from '../services/public-content';

type Awaited2<T> = T extends Promise<infer U> ? U : T;
/** Dates become ISO strings: the snapshot travels as JSON between the server and the build. */
type Jsonify<T> = T extends Date ? string : T extends (infer U)[] ? Jsonify<U>[] : T extends object ? { [K in keyof T]: Jsonify<T[K]> } : T;

async function collect(db: Db) {
  const blocks = {} as Record<ContentSection, Awaited2<ReturnType<typeof getActiveBlock>>>;
  for (const section of CONTENT_SECTIONS) blocks[section] = await getActiveBlock(db, section);
  return {
    generatedAt: new Date(),
    /** The footer's year: part of the content, so a release from last year is rebuilt at start. */
    year: new Date().getFullYear(),
    header: await getActiveHeader(db),
    headerCta: await getActiveHeaderCta(db),
    blocks,
    homeFeatures: await listFeatures(db, 'home', { activeOnly: true }),
    aboutFeatures: await listFeatures(db, 'about', { activeOnly: true }),
    services: await listServices(db, { activeOnly: true }),
    insights: await listInsights(db, { publishedOnly: true }),
    documents: await listDocuments(db, { activeOnly: true }),
    /** The active business contact record: pages that name the business's e-mail follow it. */
    contactInfo: await getActiveContactInfo(db),
  };
}

/** Everything a static build reads from the database, at one point in time. */
export type SiteContent = Jsonify<Awaited2<ReturnType<typeof collect>>>;

/** Reads the content from a database (used by the server to write the build's snapshot). */
export async function snapshotContent(db: Db): Promise<SiteContent> {
  return JSON.parse(JSON.stringify(await collect(db))) as SiteContent;
}

let loaded: Promise<SiteContent> | undefined;

const LIVE_READER = Symbol.for('procurement.liveContentReader');
const slots = globalThis as unknown as Record<symbol, (() => Promise<SiteContent>) | undefined>;

/**
 * Inside the running server, on-demand pages (the insight preview) read the server's open
 * database on every render instead: never a snapshot, never closing the database.
 */
export function useLiveContent(read: () => Promise<SiteContent>): void {
  slots[LIVE_READER] = read;
}

/**
 * The content for this build. With CONTENT_SNAPSHOT set (the server or `npm run build` wrote it)
 * the build never opens the database (the embedded database belongs to the server process alone); otherwise it reads the database itself
 * once and closes it, which is only allowed while no server owns it.
 */
export function loadSiteContent(): Promise<SiteContent> {
  const live = slots[LIVE_READER];
  if (live) return live();
  loaded ??= (async () => {
    const file = process.env.CONTENT_SNAPSHOT;
    if (file) return JSON.parse(await fs.readFile(file, 'utf8')) as SiteContent;
    try {
      return await snapshotContent(await getDb());
    } finally {
      await closeDb();
    }
  })();
  return loaded;
}
