import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { articlePlainText } from '#shared/markdown.ts';
import type { Db, Tx } from '../db/client';
import { insights, insightSearch, type Insight } from '../db/schema';
import { searchExcerpt, type ExcerptPart } from './search-excerpt';

/*
 * The insights search: PostgreSQL full-text search (English stemming, ranked by where the words
 * are: title, then summary, then text) over the published insights. Each insight's document is in
 * `insight_search`, written by the database on every save (a trigger, migration 0008) and indexed
 * (GIN), so the search is current the moment a save commits and costs a publish nothing, at any
 * number of articles (docs/decisions/013-insights-search.md). Each result's passage is cut from
 * the article's plain text, prepared when it is saved (`preparePlainText`), by search-excerpt.ts:
 * no Markdown is parsed and no ts_headline runs for a visitor's search.
 */

/** At most this many words of a query are searched; the results a search returns at most. */
export const SEARCH_MAX_WORDS = 8;
const SEARCH_MAX_RESULTS = 10;

/**
 * The tsquery text for what a visitor typed: its words (letters and digits only, so nothing of
 * the tsquery syntax gets through), all required, the last one also as a prefix (the visitor may
 * still be typing it). Null when nothing searchable was typed.
 */
export function searchQuery(typed: string): string | null {
  const words = searchWords(typed);
  if (words.length === 0) return null;
  return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
}

/** The words searched for in what a visitor typed: letters and digits, lower case, at most SEARCH_MAX_WORDS. */
function searchWords(typed: string): string[] {
  return (
    typed
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).slice(0, SEARCH_MAX_WORDS);
}

export interface FoundInsight {
  slug: string;
  title: string;
  category: string;
  publicationDate: string | null;
  createdAt: string;
  /** A passage around the matched words; `mark` on the words that matched. */
  excerpt: ExcerptPart[];
}

/** The text a result's passage is cut from: the summary, then the article's words as a reader sees them. */
const plainTextOf = (row: { excerpt: string; content: string }) => `${row.excerpt}\n\n${articlePlainText(row.content)}`;

/** After an insight is written, in its transaction: the plain text its search results are cut from. */
export async function preparePlainText(tx: Tx, row: Insight): Promise<void> {
  await tx
    .update(insightSearch)
    .set({ plainText: plainTextOf(row) })
    .where(eq(insightSearch.insightId, row.id));
}

/** How many different searches are remembered at a time. */
const REMEMBERED_SEARCHES = 500;
type SearchAnswer = { total: number; results: FoundInsight[] };
/** What visitors see, as the serving engine counts its changes (publish/live-site.ts `LiveSite`). */
interface Generations {
  generation(): number;
}
/** Per serving engine, the searches remembered in its current generation. */
const remembered = new WeakMap<Generations, { generation: number; answers: Map<string, Promise<SearchAnswer>> }>();

/**
 * `search` answered from memory when the same words were searched since what visitors see last
 * changed (the serving engine's content generation, `live`: a save that asks for a publish, a
 * release going live, another instance's publish): visitors typing the same words, the common
 * case, then cost the database nothing, and a save, an unpublish or a new release is reflected at
 * once. At most
 * REMEMBERED_SEARCHES are kept, the oldest forgotten first; a failed search is not kept.
 */
export function rememberedSearch(typed: string, live: Generations, search: () => Promise<SearchAnswer>): Promise<SearchAnswer> {
  const generation = live.generation();
  let kept = remembered.get(live);
  if (kept?.generation !== generation) remembered.set(live, (kept = { generation, answers: new Map() }));
  const { answers } = kept;
  const key = searchQuery(typed) ?? '';
  const known = answers.get(key);
  if (known) return known;
  const answer = search();
  answers.set(key, answer);
  if (answers.size > REMEMBERED_SEARCHES) answers.delete(answers.keys().next().value!);
  answer.catch(() => answers.delete(key));
  return answer;
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
  const rows = await db
    .select({
      id: insights.id,
      slug: insights.slug,
      title: insights.title,
      category: insights.category,
      publicationDate: insights.publicationDate,
      createdAt: insights.createdAt,
      excerpt: insights.excerpt,
      plainText: insightSearch.plainText,
      // Only for an article whose plain text is not written yet (saved before it existed).
      content: sql<string | null>`case when ${insightSearch.plainText} is null then ${insights.content} end`,
    })
    .from(insights)
    .innerJoin(insightSearch, eq(insightSearch.insightId, insights.id))
    .where(inArray(insights.id, ids));
  for (const r of rows) {
    if (r.plainText !== null || r.content === null) continue;
    r.plainText = plainTextOf({ excerpt: r.excerpt, content: r.content });
    // Unless a save wrote it meanwhile (from the text as it is now).
    await db
      .update(insightSearch)
      .set({ plainText: r.plainText })
      .where(and(eq(insightSearch.insightId, r.id), isNull(insightSearch.plainText)));
  }
  const words = searchWords(typed);
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
              excerpt: searchExcerpt(r.plainText ?? r.excerpt, words),
            },
          ]
        : [];
    }),
  };
}
