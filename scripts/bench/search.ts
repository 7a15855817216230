/**
 * `npm run bench search`: what the insights search costs the visitors. Starts the real server (as
 * `npm start` runs it) on its own port and data, publishes ten long articles (about 15,000
 * characters each, every one matching the searches), then measures a visitor's `GET /` every
 * 50 ms: alone for BENCH_SEARCH_SECONDS (20), then with eight searchers beside it, each from its
 * own address just under the search limit (4.9 searches a second), for as long again: first
 * typing the same few searches (answered from memory after the first), then every search
 * different (two words of the articles, the second cut short as if still typed), so each one is
 * searched in the database.
 *
 * Goal: the visitor's median stays ≤ 10 ms with the eight searchers.
 */
import { SEARCHES_PER_MINUTE } from '#server/services/search-limit.ts';
import { adminHeaders, benchServerEnv, median, newTally, p99, paced, sleep, startServer, type Tally } from './shared';

const ADMIN = { username: 'admin', email: 'admin@example.com', password: 'bench-admin-password' };
const SECONDS = Number(process.env.BENCH_SEARCH_SECONDS ?? 20);
const SEARCHERS = 8;
const ARTICLES = 10;
/** What the searchers type, in turn: words every article has, in several places. */
const QUERIES = ['procurement', 'supplier vetting', 'delivery schedule', 'compliance', 'rugged laptops', 'contract'];
const WORDS =
  'federal procurement supplier vetting delivery schedule compliance rugged laptops contract officer agency quote station'.split(' ');
/** The n-th search of all different ones: two words, the second cut to 3 to 9 letters. */
const differentQuery = (n: number) =>
  `${WORDS[n % WORDS.length]} ${WORDS[Math.floor(n / WORDS.length) % WORDS.length]!.slice(0, 3 + (Math.floor(n / WORDS.length ** 2) % 7))}`;

/** About 15,000 characters of Markdown: paragraphs, headings, bold words and links. */
function longArticle(n: number): string {
  const words =
    'federal procurement supplier vetting delivery schedule compliance rugged laptops contract officer agency quote station'.split(' ');
  const paragraphs: string[] = [];
  for (let p = 0; paragraphs.join('\n\n').length < 15_000; p++) {
    const sentence = Array.from({ length: 24 }, (_, i) => words[(p * 7 + i * 5 + n) % words.length]).join(' ');
    paragraphs.push(
      p % 6 === 0
        ? `## Part ${p / 6 + 1}`
        : `A **${words[p % words.length]}** note: ${sentence}. See [the guide](https://www.example.gov/${p}).`,
    );
  }
  return paragraphs.join('\n\n');
}

export interface SearchBenchResult {
  articles: number;
  articleChars: number;
  searchers: number;
  searchesPerSecondEach: number;
  alone: { medianMs: number; p99Ms: number; requests: number };
  /** The searchers typing the same few searches, then each search different. */
  phases: {
    name: string;
    visitor: { medianMs: number; p99Ms: number; requests: number };
    searches: { requests: number; byStatus: Record<string, number>; medianMs: number; p99Ms: number };
  }[];
}

const summary = (t: Tally) => ({ medianMs: +median(t.latencyMs).toFixed(1), p99Ms: +p99(t.latencyMs).toFixed(1), requests: t.requests });

export async function run(): Promise<SearchBenchResult> {
  const { env, base, cleanUp } = await benchServerEnv(process.env.DATABASE_URL ? 'bench-search-pg' : 'bench-search', ADMIN);
  env.TRUST_PROXY = 'true';
  env.LOG_LEVEL = 'warn';
  const { child: server } = await startServer(env);
  try {
    const headers = await adminHeaders(base, ADMIN);
    const content = longArticle(0);
    for (let n = 0; n < ARTICLES; n++) {
      const res = await fetch(`${base}/api/admin/insights`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          title: `Field notes ${n + 1}: buying for remote stations`,
          slug: `field-notes-${n + 1}`,
          category: 'market_analysis',
          excerpt: 'What a contracting officer checks before buying for a remote station.',
          content: longArticle(n),
          authorName: 'Jane Doe',
          authorTitle: 'Principal',
          isPublished: true,
        }),
      });
      if (res.status !== 201) throw new Error(`creating an article: ${res.status} ${await res.text()}`);
    }
    // The search returns only articles whose page is live: wait for the publish.
    for (let i = 0; ; i++) {
      if ((await fetch(`${base}/insights/field-notes-${ARTICLES}`)).status === 200) break;
      if (i === 600) throw new Error('the articles were never published');
      await sleep(200);
    }
    const check = (await (await fetch(`${base}/api/insights/search?q=procurement`)).json()) as { total: number };
    if (check.total < ARTICLES) throw new Error(`the search finds ${check.total} of ${ARTICLES} articles`);

    const visitor = () => fetch(`${base}/`);
    const alone = newTally();
    await paced(20, SECONDS, visitor, alone);

    const rate = (SEARCHES_PER_MINUTE - 6) / 60;
    const phases: SearchBenchResult['phases'] = [];
    for (const [name, query] of [
      ['the same few searches', (i: number, s: number) => QUERIES[(i + s) % QUERIES.length]!],
      ['every search different', (i: number, s: number) => differentQuery(i * SEARCHERS + s)],
    ] as const) {
      const searches = newTally();
      const during = newTally();
      await Promise.all([
        paced(20, SECONDS, visitor, during),
        ...Array.from({ length: SEARCHERS }, (_, s) =>
          paced(
            rate,
            SECONDS,
            (i) =>
              fetch(`${base}/api/insights/search?q=${encodeURIComponent(query(i, s))}`, {
                // Each searcher from an address of its own, a new one for each phase (the limit is per minute).
                headers: { 'x-forwarded-for': `198.51.${100 + phases.length}.${s + 1}` },
              }),
            searches,
          ),
        ),
      ]);
      phases.push({ name, visitor: summary(during), searches: { ...summary(searches), byStatus: searches.byStatus } });
    }

    const result: SearchBenchResult = {
      articles: ARTICLES,
      articleChars: content.length,
      searchers: SEARCHERS,
      searchesPerSecondEach: +rate.toFixed(2),
      alone: summary(alone),
      phases,
    };
    console.log(`| ${ARTICLES} articles of ${content.length} characters | visitor GET / median | p99 | searches: median, p99 |`);
    console.log('| --- | --- | --- | --- |');
    console.log(`| alone | ${result.alone.medianMs} ms | ${result.alone.p99Ms} ms | |`);
    for (const p of phases) {
      console.log(
        `| ${SEARCHERS} searchers × ${result.searchesPerSecondEach}/s, ${p.name} | ${p.visitor.medianMs} ms ${p.visitor.medianMs <= 10 ? '✓' : '✗'} (goal ≤ 10 ms) | ${p.visitor.p99Ms} ms | ${p.searches.medianMs} ms, ${p.searches.p99Ms} ms ${JSON.stringify(p.searches.byStatus)} |`,
      );
    }
    return result;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    cleanUp();
  }
}
