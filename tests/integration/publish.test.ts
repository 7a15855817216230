import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { headerContent, insights, publishJobs } from '#server/db/schema/index.ts';
import { listJobs } from '#server/publish/jobs.ts';
import type { Publisher, PublisherOptions } from '#server/publish/publisher.ts';
import type { Builder } from '#server/publish/render.ts';
import { STARTING_INSIGHTS } from '#server/services/starting-insights.ts';
import { createUser } from '#server/services/users.ts';
import { FEATURED_INSIGHT_LINKS } from '#shared/site-config.ts';
import { pageFile } from '#server/content/routes.ts';
import { snapshotContent, type SiteContent } from '#server/content/site-content.ts';
import { expectLogs } from './helpers/expected-logs';
import { signIn, startTestServer, TEST_ADMIN, type TestServer } from './helpers/server';
import { bundleApi, renderPage } from '../helpers/bundle';

const { publishContent: publishInto, renderBuilder, startPublisher } = bundleApi;

/** The server's engine (its release store): what its publisher publishes into and what it serves. */
const liveSite = () => server.store.live.site();
const liveRelease = () => server.store.live.release();
const publishContent = (content: SiteContent, opts?: Parameters<typeof publishInto>[2]) => publishInto(server.store, content, opts);
const compressionSettled = () => bundleApi.compressionSettled(server.store);

/*
 * The goal (worst ≤ 5 s publish-to-live) is measured by `npm run bench publish` on a quiet
 * machine. Here, beside other test files on 2 shared cores, the Astro build's own time varies
 * with the load, so the test holds what the publisher adds around the build to a tight limit and
 * the whole to a sanity bound (PUBLISH_BOUND_MS; 5000 on a quiet machine).
 */
const BOUND_MS = Number(process.env.PUBLISH_BOUND_MS ?? 60_000);
const OVERHEAD_MS = 1500;
const releases = `.releases-test-${process.pid}`;
process.env.RELEASES_DIR = releases;

let server: TestServer;
let cookie: string;
let publisher: Publisher | undefined;

async function restart(opts: Omit<PublisherOptions, 'store'> = {}) {
  await publisher?.stop();
  publisher = await startPublisher({ store: server.store, debounceMs: 100, pollMs: 0, ...opts });
}

async function status() {
  const res = await server.request('/api/admin/publish/status', { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as { state: string; lastPublishedAt: string | null; lastDurationMs: number | null; lastError: string | null };
}

async function settled(timeoutMs = 150_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const s = await status();
    if (s.state === 'idle' || s.state === 'failed') return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('publishing did not settle');
}

async function setTitle(title: string) {
  await server.db.update(headerContent).set({ title }).where(eq(headerContent.isActive, true));
}

/** What a service asks for after a save (the tests above write the rows themselves): the server's publish request. */
const changed = (kind: 'header' | 'insight', id: number) => server.store.requestPublish({ kind, id, action: 'updated' });

async function home(): Promise<string> {
  const res = await server.request('/');
  expect(res.status).toBe(200);
  return res.text();
}

async function page(p: string): Promise<string> {
  const res = await server.request(p);
  expect(res.status).toBe(200);
  return res.text();
}

/** The href of the link card whose title is exactly `title` (the featured card's longer title does not match). */
function cardHref(html: string, title: string): string | undefined {
  for (const chunk of html.split('<a href="').slice(1)) {
    const anchor = chunk.slice(0, chunk.indexOf('</a>'));
    if (new RegExp(`>\\s*${title}\\s*<`).test(anchor)) return chunk.slice(0, chunk.indexOf('"'));
  }
  return undefined;
}

beforeAll(async () => {
  server = await startTestServer();
  cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
  await restart();
}, 600_000);

afterAll(async () => {
  await publisher?.stop();
  await server?.close();
  fs.rmSync(releases, { recursive: true, force: true });
});

// What the broken builds below make the server log, on purpose.
const FAILED = 'publish failed; the previous release stays live';
const FAILED_AT_START = 'building the pages failed; serving the previous release';

describe('[PUBLISH][LOCAL]: the server rebuilds the static pages and swaps them in', { timeout: 300_000 }, () => {
  it('at start it built the pages and recorded the publish', async () => {
    expect(liveRelease()).not.toBeNull();
    expect(fs.readlinkSync(path.join(releases, 'current'))).toBe(liveRelease()!.id);
    const s = await status();
    expect(s).toMatchObject({ state: 'idle', lastError: null });
    expect(s.lastPublishedAt).not.toBeNull();
    expect(await home()).toContain('<h1');
  });

  it('a restart serves the release it finds for the same content; a new SITE_URL renders the pages again for it', async () => {
    const first = liveRelease()!;
    const site = first.site!;
    expect(site).toBe(process.env.SITE_URL);
    await restart();
    expect(liveRelease()!.id).toBe(first.id);
    // The owner sets the real address after a first start on the default one.
    const real = 'https://www.harbor-federal.example';
    process.env.SITE_URL = real;
    try {
      await restart();
      expect(liveRelease()).toMatchObject({ site: real, contentHash: first.contentHash });
      expect(liveRelease()!.id).not.toBe(first.id);
      expect(await page('/about')).toContain(`<link rel="canonical" href="${real}/about"`);
      expect(await page('/sitemap.xml')).toContain(`<loc>${real}/about</loc>`);
      expect(await page('/sitemap.xml')).not.toContain(site);
    } finally {
      process.env.SITE_URL = site;
      await restart();
    }
    expect(liveRelease()!.site).toBe(site);
    expect(await page('/about')).toContain(`<link rel="canonical" href="${site}/about"`);
  });

  it('the starting articles are live: each fixed card on /insights opens its published article', async () => {
    const list = await page('/insights');
    for (const link of FEATURED_INSIGHT_LINKS) {
      expect(cardHref(list, link.title)).toBe(`/insights/${link.slug}`);
      const article = await page(`/insights/${link.slug}`);
      expect(article).toContain(STARTING_INSIGHTS.find((i) => i.slug === link.slug)!.title);
    }
  });

  it("an unpublished article's card falls back to its fallback link after the publish", async () => {
    const [link] = FEATURED_INSIGHT_LINKS;
    const starting = STARTING_INSIGHTS.find((i) => i.slug === link.slug)!;
    const setPublished = async (on: boolean) => {
      await server.db
        .update(insights)
        .set({ isPublished: on, publicationDate: on ? new Date(starting.publicationDate) : null })
        .where(eq(insights.slug, link.slug));
      await changed('insight', 1);
      await settled();
    };
    await setPublished(false);
    try {
      expect(cardHref(await page('/insights'), link.title)).toBe(link.fallback);
      expect((await server.request(`/insights/${link.slug}`)).status).toBe(404);
    } finally {
      await setPublished(true);
    }
    expect(cardHref(await page('/insights'), link.title)).toBe(`/insights/${link.slug}`);
  });

  it('a content change is served within the bound', async () => {
    const before = await status();
    await setTitle('Fast Publishing Title');
    const t0 = Date.now();
    await changed('header', 1);
    while (!(await home()).includes('Fast Publishing Title') && Date.now() - t0 < 60_000) {
      await new Promise((r) => setTimeout(r, 25));
    }
    const elapsed = Date.now() - t0;
    const s = await settled();
    expect(elapsed - liveRelease()!.astroMs!).toBeLessThan(OVERHEAD_MS);
    expect(elapsed).toBeLessThan(BOUND_MS);
    expect(s.state).toBe('idle');
    expect(Date.parse(s.lastPublishedAt!)).toBeGreaterThan(Date.parse(before.lastPublishedAt!));
    expect(s.lastDurationMs).toBeGreaterThan(0);
  });

  it('an edited insight renders only the pages that show it; the rest stay the same files, described as they were', async () => {
    const [row] = await server.db.select().from(insights).where(eq(insights.isPublished, true)).limit(1);
    const before = {
      about: liveSite().get('/about.html'),
      article: liveSite().get(`/insights/${row!.slug}.html`),
      list: liveSite().get('/insights.html'),
    };
    expect(before.about && before.article && before.list).toBeTruthy();
    const title = `${row!.title} (revised ${Date.now().toString(36)})`;
    await server.db.update(insights).set({ title }).where(eq(insights.id, row!.id));
    await changed('insight', row!.id);
    await settled();
    expect(await page(`/insights/${row!.slug}`)).toContain(title);
    // Kept: the same file (a hard link) with the same description, not read again. Rendered: new ones.
    const about = liveSite().get('/about.html')!;
    expect({ ...about, path: '' }).toEqual({ ...before.about, path: '' });
    expect(fs.statSync(about.path).ino).toBe(fs.statSync(before.about!.path).ino);
    expect(liveSite().get(`/insights/${row!.slug}.html`)).not.toBe(before.article);
    expect(liveSite().get('/insights.html')).not.toBe(before.list);
    const dir = path.join(releases, liveRelease()!.id, 'client');
    const previousDir = fs
      .readdirSync(releases)
      .filter((d) => d !== liveRelease()!.id && fs.existsSync(path.join(releases, d, 'client', 'about.html')))
      .sort()
      .at(-1)!;
    expect(fs.statSync(path.join(dir, 'about.html')).ino).toBe(fs.statSync(path.join(releases, previousDir, 'client', 'about.html')).ino);
    await server.db.update(insights).set({ title: row!.title }).where(eq(insights.id, row!.id));
    await changed('insight', row!.id);
    await settled();
  });

  it('a save in the back office is published: the service records the change, the publisher builds it', async () => {
    const profile = (await (await server.request('/api/admin/company-profile', { cookie })).json()) as { id: number; version: number };
    const res = await server.request('/api/admin/company-profile', {
      method: 'PATCH',
      cookie,
      json: { tagline: 'Saved In The Back Office', version: profile.version },
    });
    expect(res.status).toBe(200);
    await settled();
    expect(await home()).toContain('Saved In The Back Office');
    expect((await listJobs(server.db)).at(-1)).toMatchObject({ status: 'succeeded', reason: `company-profile ${profile.id} updated` });
  });

  it('edits made during a build lead to exactly one more build, and close ones coalesce', async () => {
    // The first build waits until the later edits are recorded: a fast build cannot end before them.
    let letFirstBuildGo!: () => void;
    const firstBuildMayGo = new Promise<void>((resolve) => (letFirstBuildGo = resolve));
    let builds = 0;
    await restart({
      builder: async (outDir, c, previousDir) => {
        if (builds++ === 0) await firstBuildMayGo;
        return renderBuilder()(outDir, c, previousDir);
      },
    });
    onTestFinished(() => restart());
    const before = (await listJobs(server.db)).length;
    await setTitle('Edit One');
    await changed('header', 1);
    for (let i = 0; i < 400 && (await status()).state !== 'building'; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await status()).state).toBe('building');
    await setTitle('Edit Two');
    await changed('header', 2);
    await setTitle('Edit Three');
    await changed('header', 3);
    expect((await status()).state).toBe('building');
    letFirstBuildGo();
    await settled();
    expect(builds).toBe(2);
    const jobs = (await listJobs(server.db)).slice(before);
    expect(jobs.map((j) => [j.status, j.reason])).toEqual([
      ['succeeded', 'header 1 updated'],
      ['succeeded', 'header 2 updated, header 3 updated'],
    ]);
    expect(await home()).toContain('Edit Three');
  });

  it('concurrent page requests during a swap all succeed', async () => {
    const release = liveRelease()!.id;
    // Each path with the status it must keep answering: the not-found page answers 404.
    const paths = ['/', '/about', '/index.html', '/favicon.svg', '/404'];
    const expected = (p: string) => (p === '/404' ? 404 : 200);
    let stop = false;
    const failures: string[] = [];
    let count = 0;
    const loop = async () => {
      for (let i = 0; !stop; i++) {
        const p = paths[i % paths.length]!;
        try {
          const res = await fetch(server.url + p, { headers: { 'accept-encoding': i % 2 ? 'br' : 'gzip' } });
          const body = await res.text();
          if (res.status !== expected(p) || body.length === 0) failures.push(`${p}: ${res.status}`);
        } catch (err) {
          failures.push(`${p}: ${(err as Error).message}`);
        }
        count++;
      }
    };
    const loops = Array.from({ length: 8 }, loop);
    const until = async (n: number) => {
      while (count < n) await new Promise((r) => setTimeout(r, 5));
    };
    // Requests before, during and after the publish, however fast it is on this machine.
    await until(50);
    const atSave = count;
    await setTitle('Swapped Under Load');
    await changed('header', 1);
    await settled();
    const atLive = count;
    await until(atLive + 50);
    stop = true;
    await Promise.all(loops);
    expect(liveRelease()!.id).not.toBe(release);
    expect(await home()).toContain('Swapped Under Load');
    expect(atLive).toBeGreaterThan(atSave);
    expect(failures).toEqual([]);
  });

  it('a build missing an expected page keeps the old pages serving and reports failed with the error', async () => {
    await restart({ expectedFiles: () => ['/index.html', '/no-such-page.html'] });
    const live = liveRelease()!.id;
    await setTitle('Never Published');
    const said = expectLogs(FAILED);
    onTestFinished(() => said.restore());
    await changed('header', 1);
    const s = await settled();
    expect(said.count(FAILED)).toBe(1);
    expect(s.state).toBe('failed');
    expect(s.lastError).toBe('build is missing 1 page(s): /no-such-page.html');
    expect(liveRelease()!.id).toBe(live);
    expect(fs.readlinkSync(path.join(releases, 'current'))).toBe(live);
    expect(await home()).toContain('Swapped Under Load');
    // The failed build's directory is gone; only finished releases remain.
    for (const name of fs.readdirSync(releases)) {
      if (fs.statSync(path.join(releases, name)).isDirectory()) expect(fs.existsSync(path.join(releases, name, 'release.json'))).toBe(true);
    }
  });

  it('a build that throws keeps the old pages serving; the status survives a restart; a good build clears it', async () => {
    const site = process.env.SITE_URL;
    process.env.SITE_URL = 'not a url';
    const said = expectLogs(FAILED, FAILED_AT_START);
    onTestFinished(() => said.restore());
    try {
      await restart();
      await changed('header', 1);
      const s = await settled();
      expect(s.state).toBe('failed');
      expect(s.lastError).toMatch(/Invalid URL/);
      expect([said.count(FAILED_AT_START), said.count(FAILED)]).toEqual([1, 1]);
    } finally {
      process.env.SITE_URL = site;
    }
    expect(await home()).toContain('Swapped Under Load');
    await publisher!.stop();
    publisher = undefined;
    expect((await status()).state).toBe('failed');

    // Fixed and restarted: the build at start publishes the waiting change.
    await restart();
    expect(await status()).toMatchObject({ state: 'idle', lastError: null });
    expect(await home()).toContain('Never Published');
  });

  it('a page that fails to render fails the whole release and keeps the old pages serving', async () => {
    const live = liveRelease()!.id;
    const content = await snapshotContent(server.db);
    // Content no save can store (an article without a body): its page throws while rendering.
    const broken = {
      ...content,
      header: content.header && { ...content.header, title: 'Not Rendered' },
      insights: [...content.insights, { ...content.insights[0]!, slug: 'broken-insight', excerpt: null, content: null }],
    } as unknown as SiteContent;
    await expect(publishContent(broken)).rejects.toThrow(/^rendering \/insights\S* answered 500$/);
    expect(liveRelease()!.id).toBe(live);
    expect(fs.readlinkSync(path.join(releases, 'current'))).toBe(live);
    expect(await home()).not.toContain('Not Rendered');
    for (const name of fs.readdirSync(releases)) {
      if (fs.statSync(path.join(releases, name)).isDirectory()) expect(fs.existsSync(path.join(releases, name, 'release.json'))).toBe(true);
    }
  });

  it('a page that cannot be written fails the release at once, not after rendering every other page', async () => {
    const live = liveRelease()!.id;
    const content = await snapshotContent(server.db);
    let rendered = 0;
    const blocked: Builder = (outDir, c, previousDir) =>
      renderBuilder(async (urlPath, site, recorded) => {
        // The first page's file is taken by a directory: writing it fails (EISDIR), as a full disk would.
        if (rendered++ === 0) fs.mkdirSync(path.join(outDir, 'client', pageFile(urlPath)), { recursive: true });
        return renderPage(urlPath, site, recorded);
      })(outDir, c, previousDir);
    // The company's legal name is in every page's footer: every page is rendered again.
    const next = { ...content, company: { ...content.company, legalName: 'Never Written LLC' } } as SiteContent;
    await expect(publishContent(next, { builder: blocked })).rejects.toThrow(/EISDIR/);
    // The release has about twenty pages; the failure is seen within the pages already in flight.
    expect(rendered).toBeLessThanOrEqual(6);
    expect(liveRelease()!.id).toBe(live);
  });

  it('a publish goes live before its pages are compressed; they are served compressed once made, and a publish that cuts the compressing short compresses what it kept without copies', async () => {
    const content = await snapshotContent(server.db);
    const brotli = (p: string) => fetch(server.url + p, { headers: { 'accept-encoding': 'br' } });
    // The company's legal name is in every page's footer: every page is rendered again.
    const renamed = { ...content, company: { ...content.company, legalName: 'Compressed Later LLC' } } as SiteContent;
    await publishContent(renamed);
    // Live at once, every page still without its compressed copies: served as it is.
    const lacking = () =>
      [...liveSite()].filter(([key, f]) => /\.(html|xml)$/.test(key) && fs.statSync(f.path).size >= 256 && f.encodings.length < 2);
    expect(lacking().length).toBeGreaterThan(15);
    const plain = await brotli('/about');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toContain('Compressed Later LLC');
    await compressionSettled();
    expect(lacking()).toEqual([]);
    const compressed = await brotli('/about');
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(await compressed.text()).toContain('Compressed Later LLC');

    // Renamed again, then at once an article edited: the second publish stops the first one's
    // compressing, keeps most pages without copies, and makes them.
    await publishContent({ ...renamed, company: { ...renamed.company, legalName: 'Compressed Twice LLC' } } as SiteContent);
    const [first] = content.insights.filter((i) => i.isPublished);
    const edited = {
      ...renamed,
      company: { ...renamed.company, legalName: 'Compressed Twice LLC' },
      insights: renamed.insights.map((i) => (i.id === first!.id ? { ...i, title: `${i.title} (edited)` } : i)),
    } as SiteContent;
    await publishContent(edited);
    expect(lacking().length).toBeGreaterThan(10);
    await compressionSettled();
    expect(lacking()).toEqual([]);
    const dir = path.join(releases, liveRelease()!.id, 'client');
    for (const [key, file] of liveSite()) {
      if (file.encodings.length === 0) continue;
      const body = fs.readFileSync(file.path);
      expect(zlib.brotliDecompressSync(fs.readFileSync(`${file.path}.br`)).equals(body), key).toBe(true);
      expect(zlib.gunzipSync(fs.readFileSync(`${file.path}.gz`)).equals(body), key).toBe(true);
      // In the live release's own directory, for the next publish to keep and for a reverse proxy to send.
      if (key.includes('.') && !key.startsWith('/_astro/')) expect(file.path, key).toBe(path.resolve(dir, key.slice(1)));
    }
    expect(await (await brotli(`/insights/${first!.slug}`)).text()).toContain(`${first!.title} (edited)`);
    await publishContent(content);
    await compressionSettled();
  });

  it('a release is served while it is completed on disk; if that fails, the previous one is served again', async () => {
    const live = liveRelease()!.id;
    const content = await snapshotContent(server.db);
    const next = { ...content, header: content.header && { ...content.header, title: 'Never On Disk' } } as SiteContent;
    let servedMeanwhile = '';
    const failing: Builder = async (outDir, c, previousDir) => {
      const built = await renderBuilder()(outDir, c, previousDir);
      return {
        ...built!,
        finish: async () => {
          servedMeanwhile = await home();
          throw new Error('no space left on the disk');
        },
      };
    };
    await expect(publishContent(next, { builder: failing })).rejects.toThrow('no space left on the disk');
    expect(servedMeanwhile).toContain('Never On Disk');
    expect(liveRelease()!.id).toBe(live);
    expect(fs.readlinkSync(path.join(releases, 'current'))).toBe(live);
    expect(await home()).not.toContain('Never On Disk');
    for (const name of fs.readdirSync(releases)) {
      if (fs.statSync(path.join(releases, name)).isDirectory()) expect(fs.existsSync(path.join(releases, name, 'release.json'))).toBe(true);
    }
  });

  it('a job left building by a process that died is built again at start', async () => {
    await publisher!.stop();
    await setTitle('Recovered After Crash');
    const [job] = await server.db
      .insert(publishJobs)
      .values({ status: 'building', mode: 'local', reason: 'crashed', startedAt: new Date(Date.now() - 1000) })
      .returning();
    // Restarts that skip the build at start, so that only the recovered job can publish the title.
    await restart({ ensureRelease: false });
    if (server.handle.kind === 'postgres') {
      // Another instance may still be building it: only a job older than the stale limit is taken over.
      expect((await status()).state).toBe('building');
      await server.db
        .update(publishJobs)
        .set({ startedAt: new Date(Date.now() - 11 * 60_000) })
        .where(eq(publishJobs.id, job!.id));
      await restart({ ensureRelease: false });
    }
    await publisher!.tick();
    await settled();
    const [after] = await server.db.select().from(publishJobs).where(eq(publishJobs.id, job!.id));
    expect(after!.status).toBe('succeeded');
    expect(await home()).toContain('Recovered After Crash');
  });
});

describe('[PUBLISH][PREVIEW]: /preview/insights/{slug}', () => {
  beforeAll(async () => {
    await server.db.insert(insights).values({
      title: 'Draft Preview Insight',
      slug: 'draft-preview-insight',
      excerpt: 'A draft only administrators may see.',
      content: 'First paragraph of the draft.\n\nSecond paragraph.',
      authorName: 'Jane Doe',
      authorTitle: 'Analyst',
      isPublished: false,
    });
    await createUser(server.db, { username: 'viewer', email: 'viewer@example.com', password: 'viewer-password', role: 'user' });
  });

  it('signed out it redirects to /auth; a non-admin gets 403', async () => {
    const anon = await server.request('/preview/insights/draft-preview-insight');
    expect(anon.status).toBe(302);
    expect(anon.headers.get('location')).toBe('/auth');
    const viewer = await signIn(server, 'viewer', 'viewer-password');
    const res = await server.request('/preview/insights/draft-preview-insight', { cookie: viewer });
    expect(res.status).toBe(403);
  });

  it('an admin sees the draft rendered as the public page, never indexed or cached, with a hashed CSP', async () => {
    const res = await server.request('/preview/insights/draft-preview-insight', { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('Draft Preview Insight');
    expect(html).toContain('Second paragraph.');
    expect(html).toContain('<meta name="robots" content="noindex">');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).not.toContain("unsafe-inline' 'sha");
    if (/<script(?![^>]*\bsrc=)(?![^>]*application\/(ld\+)?json)[^>]*>/.test(html)) expect(csp).toMatch(/script-src 'self' 'sha256-/);
    // The page never made it into a release.
    expect(liveSite().has('/preview/insights/draft-preview-insight.html')).toBe(false);
  });

  it('an unknown slug answers 404 with Insight Not Found', async () => {
    const res = await server.request('/preview/insights/no-such-insight', { cookie });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Insight Not Found');
  });
});
