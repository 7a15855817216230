/**
 * The insights search box's endpoint (GET /api/insights/search): PostgreSQL full-text search over
 * the published insights, ranked, with the matched words marked in an excerpt, and only articles
 * whose page is live on this server. Bad input is a 400 with a message or simply no match, never
 * a 500.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { insights, insightSearch } from '#server/db/schema/index.ts';
import type { Publisher } from '#server/publish/publisher.ts';
import { SEARCHES_PER_MINUTE } from '#server/services/search-limit.ts';
import { LIMITS } from '#shared/constants.ts';
import { bundleApi } from '../helpers/bundle';
import { signIn, startTestServer, TEST_ADMIN, type TestServer } from './helpers/server';

const { startPublisher } = bundleApi;

const releases = `.releases-test-${process.pid}`;
process.env.RELEASES_DIR = releases;

let server: TestServer;
let cookie: string;
let publisher: Publisher;

interface Found {
  total: number;
  results: { path: string; title: string; date: string | null; category: string; excerpt: { text: string; mark?: true }[] }[];
}

const article = {
  title: 'Thermal Imaging Cameras for Border Stations',
  category: 'market_analysis',
  slug: 'thermal-imaging-border-stations',
  excerpt: 'What a contracting officer checks before buying thermal cameras.',
  content: 'Ruggedised quokkascope housings matter more than resolution when stations sit in dust and heat all year.',
  readMinutes: 3,
  authorName: 'Jane Doe',
  authorTitle: 'Principal',
  tags: 'cameras',
};

async function search(q: string): Promise<Found> {
  const res = await server.request(`/api/insights/search?q=${encodeURIComponent(q)}`);
  expect(res.status, `search ${q}: ${res.status}`).toBe(200);
  return (await res.json()) as Found;
}
const paths = async (q: string) => (await search(q)).results.map((r) => r.path);

async function api(method: string, pathname: string, json?: unknown) {
  const res = await server.request(pathname, { method, cookie, ...(json !== undefined ? { json } : {}) });
  expect(res.status, `${method} ${pathname}: ${res.status}`).toBeLessThan(300);
  return (await res.json()) as { id: number; version: number };
}

/** Polls until the search for `q` satisfies `done`; every article it returns meanwhile must have its page live. */
async function searchUntil(q: string, done: (paths: string[]) => boolean) {
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const found = await paths(q);
    for (const p of found) expect((await server.request(p)).status, `${p} was found`).toBe(200);
    if (done(found)) return;
    // Not too often: a client may search SEARCHES_PER_MINUTE times a minute (the last test).
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the search for ${q} never settled`);
}

beforeAll(async () => {
  server = await startTestServer();
  cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
  publisher = await startPublisher({ store: server.store, debounceMs: 100, pollMs: 0 });
}, 300_000);

afterAll(async () => {
  await publisher?.stop();
  await server?.close();
  fs.rmSync(releases, { recursive: true, force: true });
});

describe('[SITE][SEARCH] GET /api/insights/search', { timeout: 180_000 }, () => {
  it('finds the published insights by a word of their text or title, in any form of the word, best match first', async () => {
    expect(await paths('exclusions')).toEqual(['/insights/supplier-vetting-best-practices']);
    // Stemmed: "vetted" and "vetting" are the same word; the title's match ranks first.
    const vetted = await search('vetted suppliers');
    expect(vetted.results[0]).toMatchObject({
      path: '/insights/supplier-vetting-best-practices',
      title: 'Supplier Vetting Best Practices for Federal Buyers',
      category: 'Expert Advice',
      date: 'October 20, 2025',
    });
    // Every word must be there.
    expect(await search('exclusions closeout')).toEqual({ total: 0, results: [] });
    // As one types: the last word is also a prefix.
    expect(await paths('exclus')).toEqual(['/insights/supplier-vetting-best-practices']);
    expect(await search('xylophonequartz')).toEqual({ total: 0, results: [] });
  });

  it('marks the matched words in a short excerpt of the article', async () => {
    const [first] = (await search('exclusions')).results;
    const marked = first!.excerpt.filter((p) => p.mark).map((p) => p.text.toLowerCase());
    expect(marked).toContain('exclusions');
    const text = first!.excerpt.map((p) => p.text).join('');
    expect(text.split(/\s+/).length).toBeLessThanOrEqual(40);
    expect(text.includes('\u0001') || text.includes('\u0002')).toBe(false);
  });

  it('the excerpt is cut from the words a reader sees, not the Markdown', async () => {
    const created = await api('POST', '/api/admin/insights', {
      ...article,
      title: 'Marked Up Article',
      slug: 'marked-up-article',
      isPublished: true,
      content:
        '## Why zanzibarite matters\n\nA **bold** claim about [zanzibarite sourcing](https://www.example.gov/guide) and *care*.\n\n- one zanzibarite list item\n> a quote',
    });
    await searchUntil('zanzibarite', (found) => found.includes('/insights/marked-up-article'));
    const [hit] = (await search('zanzibarite')).results;
    const text = hit!.excerpt.map((p) => p.text).join('');
    expect(text).toContain('bold');
    expect(text).toMatch(/zanzibarite sourcing/i);
    expect(text).not.toMatch(/\*\*|\]\(|https:|^#|\n#|>/);
    expect(hit!.excerpt.filter((p) => p.mark).map((p) => p.text.toLowerCase())).toContain('zanzibarite');
    await api('DELETE', `/api/admin/insights/${created.id}`);
  });

  it('[RELIABILITY] the passage comes from plain text prepared when the article is saved, and an article saved before that gets it at its first search', async () => {
    const created = await api('POST', '/api/admin/insights', {
      ...article,
      slug: 'prepared-text',
      isPublished: true,
      content: 'Some **strong** words about [ocelotite](https://www.example.gov/x) for the search.\n\n## A heading',
    });
    const [prepared] = await server.db.select().from(insightSearch).where(eq(insightSearch.insightId, created.id));
    expect(prepared!.plainText).toBe(`${article.excerpt}\n\nSome strong words about ocelotite for the search.\n\nA heading`);
    // Changed outside the app (as an old install's rows are): the trigger clears it; the first search writes it again.
    await server.db.update(insights).set({ content: 'Plain words about ocelotite, changed by hand.' }).where(eq(insights.id, created.id));
    const [cleared] = await server.db.select().from(insightSearch).where(eq(insightSearch.insightId, created.id));
    expect(cleared!.plainText).toBeNull();
    await searchUntil('ocelotite', (found) => found.includes('/insights/prepared-text'));
    const [hit] = (await search('ocelotite')).results;
    expect(hit!.excerpt.map((p) => p.text).join('')).toContain('Plain words about ocelotite, changed by hand');
    const [rewritten] = await server.db.select().from(insightSearch).where(eq(insightSearch.insightId, created.id));
    expect(rewritten!.plainText).toBe(`${article.excerpt}\n\nPlain words about ocelotite, changed by hand.`);
    await api('DELETE', `/api/admin/insights/${created.id}`);
  });

  it('a draft is not found; once published it is, never before its page is live; an edit is found by its new words; unpublished, it is gone', async () => {
    const { id, version } = await api('POST', '/api/admin/insights', article);
    expect(await paths('quokkascope')).toEqual([]);
    const published = await api('PATCH', `/api/admin/insights/${id}`, { isPublished: true, version });
    await searchUntil('quokkascope', (p) => p.length === 1);
    expect(await paths('quokkascope')).toEqual([`/insights/${article.slug}`]);

    const edited = await api('PATCH', `/api/admin/insights/${id}`, {
      content: 'Ruggedised wombatlens housings matter more than resolution in the desert.',
      version: published.version,
    });
    expect(await paths('wombatlens')).toEqual([`/insights/${article.slug}`]);
    expect(await paths('quokkascope')).toEqual([]);
    await api('PATCH', `/api/admin/insights/${id}`, { isPublished: false, publicationDate: null, version: edited.version });
    expect(await paths('wombatlens')).toEqual([]);
  });

  it('counts every match and returns the 10 best', async () => {
    const rows = Array.from({ length: 14 }, (_, n) => ({
      title: `Pangolin note ${n + 1}`,
      slug: `pangolin-note-${n + 1}`,
      excerpt: 'A short note for the search test.',
      content: 'Pangolin scales and procurement of protective gear for field teams, one more note in a long series.',
      authorName: 'Jane Doe',
      authorTitle: 'Principal',
      isPublished: true,
      publicationDate: new Date(Date.UTC(2026, 0, n + 1)),
    }));
    await server.db.insert(insights).values(rows);
    // Inserted without a publish: no page is live, so nothing is returned yet.
    expect(await search('pangolin')).toEqual({ total: 0, results: [] });
    await api('POST', '/api/admin/publish', {});
    await searchUntil('pangolin', (p) => p.length === 10);
    const found = await search('pangolin');
    expect(found.total).toBe(14);
    // Equally good matches: the newest first.
    expect(found.results[0]!.title).toBe('Pangolin note 14');
  });

  it('takes what a visitor types as words: quotes, operators and SQL are no syntax; too long is a 400 with a message', async () => {
    for (const q of ['', '   ', '"&|!:*()<>', "'; drop table insight; --", 'a & ! b', '\\', 'procurement:* | !x']) {
      const res = await server.request(`/api/insights/search?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      await res.json();
    }
    expect((await server.request('/api/insights/search')).status).toBe(200);
    expect(await paths("exclusions'; --")).toEqual(['/insights/supplier-vetting-best-practices']);
    const long = await server.request(`/api/insights/search?q=${'a'.repeat(LIMITS.insightSearchMax + 1)}`);
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ message: `Search for at most ${LIMITS.insightSearchMax} characters` });
    expect((await server.db.select({ id: insights.id }).from(insights)).length).toBeGreaterThan(3);
  });

  it('answers JSON that no cache keeps, with the API’s CSP; an article’s markup comes back as data', async () => {
    const { id, version } = await api('POST', '/api/admin/insights', {
      ...article,
      slug: 'markup-in-title',
      title: '<img src=x onerror=alert(1)> Narwhal buying guide',
      content: 'Narwhal <script>alert(2)</script> tusks are not a federal supply item, and never were, in any year.',
    });
    await api('PATCH', `/api/admin/insights/${id}`, { isPublished: true, version });
    await searchUntil('narwhal', (p) => p.length === 1);
    const res = await server.request('/api/insights/search?q=narwhal');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const [found] = ((await res.json()) as Found).results;
    expect(found!.title).toBe('<img src=x onerror=alert(1)> Narwhal buying guide');
    // The excerpt is words of the text (the search's parser leaves tag-like runs out), as plain strings.
    expect(found!.excerpt.map((p) => p.text).join('')).toContain('Narwhal');
    expect(found!.excerpt.every((p) => typeof p.text === 'string')).toBe(true);
  });
  // Last: it spends this client's searches for the minute.
  it('with a deploy hook (the host serves the pages), a published article is found at once, and an edit by its new words', async () => {
    // A hook that accepts every call: the host's build is not this test's.
    const hook = http.createServer((req, res) => req.resume().on('end', () => res.end('ok')));
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    publisher = await startPublisher({ store: server.store, webhook: { url }, debounceMs: 100, pollMs: 0, ensureRelease: false });
    try {
      // This server still serves the release it rendered in local mode, without the new article.
      expect(server.store.live.release()).not.toBeNull();
      const created = await api('POST', '/api/admin/insights', {
        ...article,
        slug: 'zebra-logistics',
        title: 'Zebra Logistics',
        isPublished: true,
      });
      expect(server.store.live.site().has('/insights/zebra-logistics.html')).toBe(false);
      expect(await paths('zebra')).toEqual(['/insights/zebra-logistics']);
      await api('PATCH', `/api/admin/insights/${created.id}`, { title: 'Okapi Logistics', version: created.version });
      expect(await paths('okapi')).toEqual(['/insights/zebra-logistics']);
      await api('DELETE', `/api/admin/insights/${created.id}`);
      expect(await paths('okapi')).toEqual([]);
    } finally {
      // Local mode again for the rest of the file (starting a publisher stops the store's last one).
      publisher = await startPublisher({ store: server.store, debounceMs: 100, pollMs: 0 });
      await new Promise<void>((resolve) => hook.close(() => resolve()));
    }
  });

  it('one client searching more than SEARCHES_PER_MINUTE times a minute gets a 429 with a message and Retry-After', async () => {
    let res: Response | undefined;
    for (let i = 0; i <= SEARCHES_PER_MINUTE; i++) {
      res = await server.request(`/api/insights/search?q=flood${i}`);
      if (res.status === 429) break;
      expect(res.status).toBe(200);
    }
    expect(res!.status).toBe(429);
    expect(await res!.json()).toEqual({ message: 'Too many searches. Please wait a minute and try again.' });
    expect(Number(res!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The pages themselves are not limited.
    expect((await server.request('/insights')).status).toBe(200);
  });
});
