import { and, count, desc, eq, ilike, like, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { LIMITS } from '#shared/constants.ts';
import type { LibraryPage } from '#shared/responses.ts';
import type { Db, Tx } from '../db/client';
import { companyProfile, contentBlocks, emailTemplates, headerContent, insights, services, uploads } from '../db/schema';
import { HttpError } from '../http';

/*
 * The media library (Homepage, Services, Blog, About and Templates image fields: "Choose from
 * library"): every uploaded image with where it is used, and the rule that an image still used
 * anywhere, an earlier version of a block included, is not deleted.
 *
 * Uploaded images are stored under content-addressed names (`images/<32 hex>.<ext>`, with WebP
 * variants `images/<32 hex>-<w>w.webp`), so a stored text uses an image when it mentions its hash,
 * whichever URL form (original, variant, local or Vercel Blob) it holds.
 */

/** An uploaded image's hash: the 32 hex characters of its name. */
const HASH = /images\/([0-9a-f]{32})/;

function imageHash(urlOrKey: string): string | null {
  return HASH.exec(urlOrKey)?.[1] ?? null;
}

/** Every image hash a stored text mentions, as a Postgres array (texts may embed several, as Markdown). */
const hashesIn = (column: PgColumn): SQL<string[] | null> =>
  sql<string[] | null>`array(select m[1] from regexp_matches(coalesce(${column}, ''), 'images/([0-9a-f]{32})', 'g') as m)`;

/**
 * Only rows that can mention the image (or any uploaded image, when looking for several): a cheap
 * substring test, one scan of each text, before the regular expression.
 */
function mentioning(columns: PgColumn[], hashes: string[] | undefined): SQL {
  const needle = hashes?.length === 1 ? `images/${hashes[0]}` : 'images/';
  return sql.join(
    columns.map((c) => sql`strpos(${c}, ${needle}) > 0`),
    sql` or `,
  );
}

/** Content block sections, as the Homepage, About and Services tabs name them. */
const SECTION_NAMES: Record<string, string> = {
  intro: 'Home page introduction',
  home_cta: 'Home page call to action',
  home_services: 'Home page services block',
  about: 'About page',
  about_mission: 'Mission statement (About page)',
  services_hero: 'Services page introduction',
  services_overview: 'Services page closing section',
};

/** One place an image is used: what the owner would look for, and whether it is the live version. */
export interface ImageUse {
  where: string;
  /** False for an earlier version of a block (kept so that version can be restored). */
  current: boolean;
}

/** The places each image (by hash) is used; `hashes` limits the search to those images. */
async function imageUses(db: Db | Tx, hashes?: string[]): Promise<Map<string, ImageUse[]>> {
  const uses = new Map<string, ImageUse[]>();
  const add = (found: (string[] | null)[], where: string, current = true) => {
    for (const hash of new Set(found.flatMap((f) => f ?? []))) {
      if (hashes && !hashes.includes(hash)) continue;
      const list = uses.get(hash) ?? [];
      if (!list.some((u) => u.where === where && u.current === current)) list.push({ where, current });
      uses.set(hash, list);
    }
  };

  const headerColumns = [headerContent.backgroundImage, headerContent.logoLight, headerContent.logoDark];
  for (const row of await db
    .select({
      active: headerContent.isActive,
      background: hashesIn(headerContent.backgroundImage),
      light: hashesIn(headerContent.logoLight),
      dark: hashesIn(headerContent.logoDark),
    })
    .from(headerContent)
    .where(mentioning(headerColumns, hashes))) {
    add([row.background], 'Home page background image', row.active);
    add([row.light], 'Logo on light background', row.active);
    add([row.dark], 'Logo on dark background', row.active);
  }

  const blockColumns = [contentBlocks.backgroundImage, contentBlocks.imageUrl, contentBlocks.content];
  for (const row of await db
    .select({
      section: contentBlocks.section,
      active: contentBlocks.isActive,
      found: sql<
        string[] | null
      >`${hashesIn(contentBlocks.backgroundImage)} || ${hashesIn(contentBlocks.imageUrl)} || ${hashesIn(contentBlocks.content)}`,
    })
    .from(contentBlocks)
    .where(mentioning(blockColumns, hashes))) {
    add([row.found], SECTION_NAMES[row.section] ?? row.section, row.active);
  }

  for (const row of await db
    .select({
      title: services.title,
      found: sql<string[] | null>`${hashesIn(services.imageSrc)} || ${hashesIn(services.detailedDescription)}`,
    })
    .from(services)
    .where(mentioning([services.imageSrc, services.detailedDescription], hashes))) {
    add([row.found], `Service “${row.title}”`);
  }

  for (const row of await db
    .select({ title: insights.title, found: sql<string[] | null>`${hashesIn(insights.featuredImage)} || ${hashesIn(insights.content)}` })
    .from(insights)
    .where(mentioning([insights.featuredImage, insights.content], hashes))) {
    add([row.found], `Insight “${row.title}”`);
  }

  for (const row of await db
    .select({ name: emailTemplates.name, found: hashesIn(emailTemplates.companyLogo) })
    .from(emailTemplates)
    .where(mentioning([emailTemplates.companyLogo], hashes))) {
    add([row.found], `E-mail template “${row.name}”`);
  }

  for (const row of await db
    .select({ found: hashesIn(companyProfile.founderPhoto) })
    .from(companyProfile)
    .where(mentioning([companyProfile.founderPhoto], hashes))) {
    add([row.found], 'Leadership photo (About page)');
  }
  return uses;
}

/** The uses of one image, the live ones first. */
export async function usesOf(db: Db | Tx, urlOrKey: string): Promise<ImageUse[]> {
  const hash = imageHash(urlOrKey);
  if (!hash) return [];
  const list = (await imageUses(db, [hash])).get(hash) ?? [];
  return list.sort((a, b) => Number(b.current) - Number(a.current));
}

/** Every uploaded image's hash that the string values of `values` mention. */
function hashesOf(values: Record<string, unknown>): Set<string> {
  const found = new Set<string>();
  for (const value of Object.values(values)) {
    if (typeof value !== 'string') continue;
    for (const m of value.matchAll(/images\/([0-9a-f]{32})/g)) found.add(m[1]!);
  }
  return found;
}

/**
 * Inside the transaction that stores `values`: the uploaded images they newly mention (not in
 * `before`) must still be in the library, and stay there until the transaction ends (their rows
 * are locked FOR SHARE; deleting an image locks its row FOR UPDATE and checks its uses in one
 * transaction). So a save and a delete of the same image never both succeed: whichever comes
 * second sees the other. An image deleted meanwhile refuses the save with 409.
 */
export async function holdImagesUsed(tx: Tx, values: Record<string, unknown>, before?: Record<string, unknown>): Promise<void> {
  const had = before ? hashesOf(before) : new Set<string>();
  const added = [...hashesOf(values)].filter((hash) => !had.has(hash));
  for (const hash of added) {
    const [row] = await tx
      .select({ id: uploads.id })
      .from(uploads)
      .where(and(eq(uploads.kind, 'image'), like(uploads.key, `images/${hash}.%`)))
      .limit(1)
      .for('share');
    if (!row) throw new HttpError(409, 'An image chosen here was deleted from the library meanwhile. Choose it again or pick another.');
  }
}

/** How a use reads in a list or a message. */
function describeUse(use: ImageUse): string {
  return use.current ? use.where : `${use.where} (an earlier version)`;
}

/** Images listed per page of the library. */
const LIBRARY_PAGE_SIZE = 24;

/** The variant of `url` for width `w`. */
const variantUrl = (url: string, w: number) => url.replace(/\.[a-z]+$/, `-${w}w.webp`);

/** GET /api/admin/images: a page of uploaded images, newest first, found by file name (or the one at `url`). */
export async function listLibrary(db: Db, { query, page, url }: { query: string; page: number; url?: string }): Promise<LibraryPage> {
  const words = query.trim().slice(0, LIMITS.shortText);
  const where = and(
    eq(uploads.kind, 'image'),
    url === undefined ? undefined : eq(uploads.url, url),
    words ? ilike(uploads.originalName, `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
  );
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(uploads).where(where);
  const rows = await db
    .select()
    .from(uploads)
    .where(where)
    .orderBy(desc(uploads.createdAt), desc(uploads.id))
    .limit(LIBRARY_PAGE_SIZE)
    .offset((page - 1) * LIBRARY_PAGE_SIZE);
  const hashes = rows.map((r) => imageHash(r.key)).filter((h): h is string => h !== null);
  const uses = hashes.length ? await imageUses(db, hashes) : new Map<string, ImageUse[]>();
  return {
    images: rows
      .filter((r) => r.url)
      .map((r) => {
        const smallest = Math.min(...(r.variantWidths ?? []));
        const hash = imageHash(r.key);
        return {
          id: r.id,
          url: r.url!,
          thumbnailUrl: Number.isFinite(smallest) ? variantUrl(r.url!, smallest) : r.url!,
          name: r.originalName ?? r.key.replace(/^images\//, ''),
          size: r.size,
          width: r.width,
          height: r.height,
          createdAt: r.createdAt.toISOString(),
          usedIn: (hash ? (uses.get(hash) ?? []) : []).sort((a, b) => Number(b.current) - Number(a.current)).map(describeUse),
        };
      }),
    total,
    page,
    pageSize: LIBRARY_PAGE_SIZE,
  };
}

/** The refusal of deleting an image still in use, naming where. */
export function inUseError(uses: ImageUse[]): HttpError {
  const places = uses.map(describeUse);
  const listed = places.length > 3 ? `${places.slice(0, 3).join('; ')}; and ${places.length - 3} more` : places.join('; ');
  return new HttpError(409, `This image is still used: ${listed}. Choose another image there first.`);
}
