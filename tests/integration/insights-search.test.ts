/**
 * The insights search (Pagefind): the server indexes the published insights after each publish
 * that changes one, once the pages are live, and serves the index at /pagefind/. Searched here as
 * a browser searches: the site's own pagefind.js on the site's own index files, over HTTP.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerContent } from '#server/db/schema/index.ts';
import type { Publisher } from '#server/publish/publisher.ts';
import { bundleApi } from '../helpers/bundle';
import { searchSite } from '../helpers/site-search';
import { signIn, startTestServer, TEST_ADMIN, type TestServer } from './helpers/server';

const { liveSite, recordChange, searchIndexIdle, startPublisher } = bundleApi;

const releases = `.releases-test-${process.pid}`;
process.env.RELEASES_DIR = releases;
const searchDir = path.join(releases, 'search');

let server: TestServer;
let cookie: string;
let publisher: Publisher;

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

async function api(method: string, pathname: string, json?: unknown) {
  const res = await server.request(pathname, { method, cookie, ...(json !== undefined ? { json } : {}) });
  expect(res.status, `${method} ${pathname}: ${res.status}`).toBeLessThan(300);
  return (await res.json()) as { id: number; version: number };
}

async function settled() {
  for (const until = Date.now() + 120_000; Date.now() < until;) {
    const res = await server.request('/api/admin/publish/status', { cookie });
    const { state } = (await res.json()) as { state: string };
    if (state === 'idle' || state === 'failed') return searchIndexIdle();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('publishing did not settle');
}

/**
 * Polls until the search for `term` satisfies `done`. Each page it finds must
 * already be live, unless `pageMayBeGone` (an index may lag the pages, as when a page was just removed, but never lead).
 */
async function searchUntil(term: string, done: (paths: string[]) => boolean, opts = { pageMayBeGone: false }) {
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const found = await searchSite(server.url, term);
    if (!opts.pageMayBeGone) for (const f of found) expect((await server.request(f.path)).status, `${f.path} is in the index`).toBe(200);
    if (done(found.map((f) => f.path))) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the search for ${term} never settled`);
}

const indexes = () => fs.readdirSync(searchDir).sort();
const currentIndex = () => fs.readlinkSync(path.join(searchDir, 'current'));

beforeAll(async () => {
  server = await startTestServer({ site: liveSite });
  cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
  publisher = await startPublisher({ debounceMs: 100, pollMs: 0 });
  await searchIndexIdle();
}, 300_000);

afterAll(async () => {
  await publisher?.stop();
  await server?.close();
  fs.rmSync(releases, { recursive: true, force: true });
});

describe('[SITE][SEARCH] the insights search', { timeout: 180_000 }, () => {
  it('at start the published insights are indexed: found by a word of their text, and by their title', async () => {
    const byText = await searchSite(server.url, 'exclusions');
    expect(byText.map((f) => f.path)).toContain('/insights/supplier-vetting-best-practices');
    const byTitle = await searchSite(server.url, 'vetting');
    expect(byTitle[0]).toMatchObject({
      path: '/insights/supplier-vetting-best-practices',
      title: 'Supplier Vetting Best Practices for Federal Buyers',
    });
    expect(await searchSite(server.url, 'xylophonequartz')).toEqual([]);
  });

  it('a draft is not found; once published it is, never before its page is live; its excerpt marks the word', async () => {
    const { id, version } = await api('POST', '/api/admin/insights', article);
    await settled();
    expect(await searchSite(server.url, 'quokkascope')).toEqual([]);
    await api('PATCH', `/api/admin/insights/${id}`, { isPublished: true, version });
    const [found] = await searchUntil('quokkascope', (paths) => paths.length > 0);
    expect(found).toMatchObject({ path: `/insights/${article.slug}`, title: article.title });
    expect(found!.excerpt).toContain('<mark>quokkascope</mark>');
  });

  it('an edit is found by its new words and no longer by the old; an unpublished article leaves the index', async () => {
    const list = (await (await server.request('/api/admin/insights', { cookie })).json()) as {
      id: number;
      slug: string;
      version: number;
    }[];
    const mine = list.find((i) => i.slug === article.slug)!;
    const entry = async () =>
      (await (await server.request('/pagefind/pagefind-entry.json')).json()) as { languages: { en: { hash: string } } };
    const before = (await entry()).languages.en.hash;
    const edited = await api('PATCH', `/api/admin/insights/${mine.id}`, {
      content: 'Ruggedised wombatlens housings matter more than resolution.',
      version: mine.version,
    });
    await searchUntil('wombatlens', (paths) => paths.includes(`/insights/${article.slug}`));
    expect(await searchSite(server.url, 'quokkascope')).toEqual([]);
    // A page that read the entry file before the swap still gets the chunks it names.
    expect((await entry()).languages.en.hash).not.toBe(before);
    expect((await server.request(`/pagefind/pagefind.${before}.pf_meta`)).status).toBe(200);
    await api('PATCH', `/api/admin/insights/${mine.id}`, { isPublished: false, publicationDate: null, version: edited.version });
    // The page goes first; the index follows (until then it may still list the page).
    await searchUntil('wombatlens', (paths) => paths.length === 0, { pageMayBeGone: true });
    expect((await server.request(`/insights/${article.slug}`)).status).toBe(404);
  });

  it('a publish that changes no insight indexes nothing again', async () => {
    await settled();
    const before = {
      current: currentIndex(),
      dirs: indexes(),
      entry: await (await server.request('/pagefind/pagefind-entry.json')).text(),
    };
    await server.db.update(headerContent).set({ title: 'Search Test Title' }).where(eq(headerContent.isActive, true));
    await recordChange({ kind: 'header', id: 1, action: 'updated' });
    // The header is live everywhere…
    for (const until = Date.now() + 60_000; !(await (await server.request('/')).text()).includes('Search Test Title');) {
      if (Date.now() > until) throw new Error('the header never went live');
      await new Promise((r) => setTimeout(r, 100));
    }
    await settled();
    // …and the index is the one before, untouched.
    expect({
      current: currentIndex(),
      dirs: indexes(),
      entry: await (await server.request('/pagefind/pagefind-entry.json')).text(),
    }).toEqual(before);
  });

  it('is served from our origin with the right types and caching; only the insights pages may run its WebAssembly', async () => {
    const js = await server.request('/pagefind/pagefind.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const entry = (await (await server.request('/pagefind/pagefind-entry.json')).json()) as {
      languages: Record<string, { hash: string; page_count: number }>;
    };
    expect(entry.languages.en?.page_count).toBe(3);
    const meta = await server.request(`/pagefind/pagefind.${entry.languages.en!.hash}.pf_meta`);
    expect(meta.status).toBe(200);
    expect(meta.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Pagefind's own interface files are not served: the page has its own.
    expect((await server.request('/pagefind/pagefind-ui.js')).status).toBe(404);
    const csp = async (p: string) => (await server.request(p)).headers.get('content-security-policy') ?? '';
    expect(await csp('/insights')).toMatch(/script-src 'self' [^;]*'wasm-unsafe-eval'/);
    for (const p of ['/', '/about', `/insights/supplier-vetting-best-practices`]) expect(await csp(p), p).not.toContain('wasm');
  });
});
