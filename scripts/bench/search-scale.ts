/**
 * `npm run bench search-scale`: how long one insights search takes as the articles grow: 3, 1,000
 * and 3,000 published articles of about 6,000 characters, on the embedded database (its own thread,
 * as the server runs it) and, with DATABASE_URL, on Postgres. Each size is searched for a word
 * every article has (ranking all of them), a word in one article in ten, a rare word, and a word
 * still being typed (a prefix), 40 times each, through the server's own search function
 * (`searchInsights`: the ranked ids, then the passages of the ten shown). A different search each
 * time is what costs: the same search is answered from memory until the content changes.
 *
 * Goal: a search answers in ≤ 50 ms at 3,000 articles (median of each kind).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type DbHandle } from '../../src/server/db/client';
import { insights, insightSearch } from '../../src/server/db/schema';
import { searchInsights } from '../../src/server/services/insight-search';
import { articlePlainText } from '../../src/shared/markdown';
import { freshPostgres, median, p99, printByDatabase } from './shared';

const SIZES = [3, 1000, 3000];
const ROUNDS = 40;
const WORDS =
  'federal procurement supplier vetting delivery schedule compliance rugged laptops contract officer agency quote station warehouse freight invoice'.split(
    ' ',
  );

/** About 6,000 characters of Markdown; article `n` also names `marker${n % 10}` and `rare${n}`. */
function article(n: number): string {
  const paragraphs: string[] = [];
  for (let p = 0; paragraphs.join('\n\n').length < 6_000; p++) {
    const sentence = Array.from({ length: 20 }, (_, i) => WORDS[(p * 7 + i * 5 + n) % WORDS.length]).join(' ');
    paragraphs.push(p % 5 === 0 ? `## Part ${p / 5 + 1}` : `A **${WORDS[p % WORDS.length]}** note: ${sentence}.`);
  }
  paragraphs.push(`Filed under marker${n % 10} and rare${n}.`);
  return paragraphs.join('\n\n');
}

/** Adds published articles up to `total` in batches, with the plain text a save prepares. */
async function grow(handle: DbHandle, from: number, total: number): Promise<void> {
  for (let start = from; start < total; start += 250) {
    const rows = Array.from({ length: Math.min(250, total - start) }, (_, i) => {
      const n = start + i;
      return {
        title: `Field notes ${n + 1}: buying for remote stations`,
        slug: `field-notes-${n + 1}`,
        category: 'market_analysis' as const,
        excerpt: 'What a contracting officer checks before buying for a remote station.',
        content: article(n),
        isPublished: true,
        publicationDate: new Date(Date.UTC(2020, 0, 1) + n * 3_600_000),
        authorName: 'Jane Doe',
        authorTitle: 'Principal',
      };
    });
    const inserted = await handle.db
      .insert(insights)
      .values(rows)
      .returning({ id: insights.id, excerpt: insights.excerpt, content: insights.content });
    for (const r of inserted)
      await handle.db
        .update(insightSearch)
        .set({ plainText: `${r.excerpt}\n\n${articlePlainText(r.content)}` })
        .where(sql`${insightSearch.insightId} = ${r.id}`);
  }
}

/** Words half typed (not a stop word such as "off", which the search drops). */
const PREFIXES = ['proc', 'supp', 'deliv', 'compl', 'lapt', 'contr', 'agen', 'ware', 'frei', 'invo'];

const KINDS: [string, (round: number, size: number) => string][] = [
  ['every article', (r) => WORDS[r % WORDS.length]!],
  ['one in ten', (r, size) => `marker${r % Math.min(10, size)}`],
  ['one article', (r, size) => `rare${(r * 37) % size}`],
  ['a word being typed', (r) => PREFIXES[r % PREFIXES.length]!],
];

export interface SearchScaleResult {
  database: string;
  sizes: { articles: number; kinds: { kind: string; total: number; medianMs: number; p99Ms: number }[] }[];
}

async function measure(database: string, handle: DbHandle): Promise<SearchScaleResult> {
  const result: SearchScaleResult = { database, sizes: [] };
  let have = 0;
  for (const size of SIZES) {
    await grow(handle, have, size);
    have = size;
    const kinds = [];
    for (const [kind, query] of KINDS) {
      const times: number[] = [];
      let total = 0;
      for (let r = 0; r < ROUNDS; r++) {
        const t0 = performance.now();
        const found = await searchInsights(handle.db, query(r, size));
        times.push(performance.now() - t0);
        total = found.total;
        if (found.results.length === 0) throw new Error(`no result for ${query(r, size)} at ${size} articles`);
      }
      kinds.push({ kind, total, medianMs: +median(times).toFixed(1), p99Ms: +p99(times).toFixed(1) });
    }
    result.sizes.push({ articles: size, kinds });
  }
  return result;
}

export async function run(): Promise<SearchScaleResult[]> {
  const results: SearchScaleResult[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-search-scale-'));
  try {
    const embedded = await openDatabase({ dir: path.join(dir, 'pglite') });
    try {
      results.push(await measure('embedded (PGlite)', embedded));
    } finally {
      await embedded.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const url = process.env.DATABASE_URL;
  if (url) {
    // A database of its own, left for the next run to drop (as the other benchmarks' are).
    const postgres = await openDatabase({ url: await freshPostgres(url, 'bench_search_scale') });
    try {
      results.push(await measure('Postgres', postgres));
    } finally {
      await postgres.close();
    }
  }
  const rows: [string, (r: SearchScaleResult) => string][] = [];
  for (const [i, size] of SIZES.entries())
    for (const [k, [kind]] of KINDS.entries())
      rows.push([
        `${size.toLocaleString('en-US')} articles, ${kind}`,
        (r) => {
          const m = r.sizes[i]!.kinds[k]!;
          return `${m.medianMs} ms (p99 ${m.p99Ms}; ${m.total} found)${size === 3000 ? (m.medianMs <= 50 ? ' ✓' : ' ✗') : ''}`;
        },
      ]);
  printByDatabase(results, rows);
  return results;
}
