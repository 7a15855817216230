import { sql } from 'drizzle-orm';
import { boolean, check, customType, index, integer, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { timestamps, version } from './columns';
import { insightCategory } from './enums';

export const insights = pgTable(
  'insight',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    slug: varchar('slug', { length: 200 }).notNull().unique(),
    category: insightCategory('category').notNull().default('industry_spotlights'),
    excerpt: text('excerpt').notNull(),
    content: text('content').notNull(),
    isPublished: boolean('is_published').notNull().default(false),
    /** Set when published, cleared when unpublished (SPEC 4). */
    publicationDate: timestamp('publication_date', { withTimezone: true }),
    readMinutes: integer('read_minutes').notNull().default(5),
    authorName: text('author_name').notNull(),
    authorTitle: text('author_title').notNull(),
    featuredImage: text('featured_image'),
    featuredImageAlt: text('featured_image_alt'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    relatedInsights: integer('related_insights')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    ...version,
    ...timestamps,
  },
  (t) => [
    check('insight_read_minutes_min', sql`${t.readMinutes} >= 1`),
    check('insight_slug_format', sql`${t.slug} ~ '^[a-z0-9-]+$'`),
    index('insight_published_idx').on(t.isPublished, t.publicationDate),
  ],
);
export type Insight = typeof insights.$inferSelect;

/** PostgreSQL's full-text document type. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The insights search's document of each insight (services/insight-search.ts): its title
 * (weight A), summary (B), text and author (C), English-stemmed. Kept by the database itself: a
 * trigger on `insight` writes it on every insert and on every update of those fields (migration
 * 0008), so it is current the moment a save commits; `plain_text` beside it (migration 0011). A table of its own, so that the rows every
 * other query reads do not carry it.
 */
export const insightSearch = pgTable(
  'insight_search',
  {
    insightId: integer('insight_id')
      .primaryKey()
      .references(() => insights.id, { onDelete: 'cascade' }),
    document: tsvector('document').notNull(),
    /**
     * The summary and the text as a reader sees them (Markdown rendered to plain words), where a
     * result's passage is cut from. Written by the app in the transaction that saves the article;
     * the trigger clears it when the text changes any other way, and the first search that finds
     * it empty writes it (services/insight-search.ts).
     */
    plainText: text('plain_text'),
  },
  (t) => [index('insight_search_document_idx').using('gin', t.document)],
);
