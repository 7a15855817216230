import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { articlePlainText } from '#shared/markdown.ts';
import type { Db } from '../db/client';
import { insights, insightSearch } from '../db/schema';

/*
 * The insights search: PostgreSQL full-text search (English stemming, ranked by where the words
 * are: title, then summary, then text) over the published insights. Each insight's document is in
 * `insight_search`, written by the database on every save (a trigger, migration 0008) and indexed
 * (GIN), so the search is current the moment a save commits and costs a publish nothing, at any
 * number of articles (docs/decisions/013-insights-search.md).
 */

/** At most this many words of a query are searched; the results a search returns at most. */
export const SEARCH_MAX_WORDS = 8;
const SEARCH_MAX_RESULTS = 10;

/** Marks around the matched words in an excerpt, split out before it leaves the server. */
const START = '\u0001';
const STOP = '\u0002';

/**
 * The tsquery text for what a visitor typed: its words (letters and digits only, so nothing of
 * the tsquery syntax gets through), all required, the last one also as a prefix (the visitor may
 * still be typing it). Null when nothing searchable was typed.
 */
export function searchQuery(typed: string): string | null {
  const words = (
    typed
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).slice(0, SEARCH_MAX_WORDS);
  if (words.length === 0) return null;
  return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
}

export interface FoundInsight {
  slug: string;
  title: string;
  category: string;
  publicationDate: string | null;
  createdAt: string;
  /** A passage around the matched words; `mark` on the words that matched. */
  excerpt: { text: string; mark?: true }[];
}

/** Splits ts_headline's output at its marks. */
function excerptParts(headline: string): FoundInsight['excerpt'] {
  const parts: FoundInsight['excerpt'] = [];
  for (const [i, chunk] of headline.split(START).entries()) {
    const [marked, rest] = i === 0 ? [undefined, chunk] : chunk.split(STOP, 2);
    if (marked) parts.push({ text: marked, mark: true });
    if (rest) parts.push({ text: rest });
  }
  return parts;
}

/**
 * The published insights that match `typed`, best first (then newest), at most `limit` of those
 * `visible` accepts (the pages that are live), and how many matched in all.
 */
export async function searchInsights(
  db: Db,
  typed: string,
  opts: { limit?: number; visible?: (slug: string) => boolean } = {},
): Promise<{ total: number; results: FoundInsight[] }> {
  const query = searchQuery(typed);
  if (!query) return { total: 0, results: [] };
  const limit = opts.limit ?? SEARCH_MAX_RESULTS;
  const tsquery = sql`to_tsquery('english', ${query})`;
  // The ranked ids first (the index finds them), then the excerpts of only those shown. A few
  // more than shown, in case some are not live yet.
  const ranked = await db
    .select({ id: insights.id, slug: insights.slug, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(insightSearch)
    .innerJoin(insights, eq(insights.id, insightSearch.insightId))
    .where(and(eq(insights.isPublished, true), ne(insights.slug, '404'), sql`${insightSearch.document} @@ ${tsquery}`))
    // Where the words are (title, summary, text: the document's weights), then the newest.
    .orderBy(sql`ts_rank(${insightSearch.document}, ${tsquery}) desc`, sql`${insights.publicationDate} desc nulls last`, desc(insights.id))
    .limit(limit * 3);
  const visible = ranked.filter((r) => opts.visible?.(r.slug) ?? true);
  const total = (ranked[0]?.total ?? 0) - (ranked.length - visible.length);
  const ids = visible.slice(0, limit).map((r) => r.id);
  if (ids.length === 0) return { total, results: [] };
  const options = `StartSel=${START}, StopSel=${STOP}, MinWords=18, MaxWords=32, ShortWord=2, MaxFragments=1`;
  const rows = await db
    .select({
      id: insights.id,
      slug: insights.slug,
      title: insights.title,
      category: insights.category,
      publicationDate: insights.publicationDate,
      createdAt: insights.createdAt,
      excerpt: insights.excerpt,
      content: insights.content,
    })
    .from(insights)
    .where(inArray(insights.id, ids));
  // The passage is cut from the words a reader sees, not the Markdown (no `**` or link targets).
  const headlines = await Promise.all(
    rows.map(async (r) => {
      const text = `${r.excerpt ?? ''}\n\n${articlePlainText(r.content)}`;
      const [row] = await db
        .select({ headline: sql<string>`ts_headline('english', ${text}::text, ${tsquery}, ${options})` })
        .from(insights)
        .where(eq(insights.id, r.id));
      return [r.id, row?.headline ?? ''] as const;
    }),
  );
  const headlineOf = new Map(headlines);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    total,
    results: ids.flatMap((id) => {
      const r = byId.get(id);
      return r
        ? [
            {
              slug: r.slug,
              title: r.title,
              category: r.category,
              publicationDate: r.publicationDate?.toISOString() ?? null,
              createdAt: r.createdAt.toISOString(),
              excerpt: excerptParts(headlineOf.get(id) ?? ''),
            },
          ]
        : [];
    }),
  };
}
