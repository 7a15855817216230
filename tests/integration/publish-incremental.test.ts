/**
 * A publish renders only the pages whose content changed and keeps the others (hard links of the
 * live release's files). What each page reads is recorded while it renders (src/server/content/
 * reads.ts), so this test proves the record complete: for every kind of content, changed alone,
 * the release built from the live one holds exactly the files a build from nothing would make,
 * and every page that did not change is the same file (the same inode) as in the live release.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteContent } from '#server/content/site-content.ts';
import { buildRelease, releaseClientDir } from '#server/publish/releases.ts';
import type { ReleaseInfo } from '#server/publish/live-site.ts';
import { compressMissing, loadStaticSite } from '#server/publish/release-files.ts';
import type { StaticFile, StaticMap } from '#server/web/static-site.ts';
import { STARTING_COMPANY } from '#shared/company.ts';
import { at, content as withData } from './helpers/content-with-data';

/**
 * The content with data, and a filled company profile and contact record; the site offers the
 * generated capability statement (so the release holds it beside the uploaded one).
 */
const content = {
  ...withData,
  capabilityStatement: { useGenerated: true },
  company: {
    ...STARTING_COMPANY,
    uei: 'ABCDEF123456',
    cageCode: '1A2B3',
    samActive: true,
    samExpiresOn: '2099-05-01',
    procurementEmail: 'bids@harbor-federal-supply.com',
    figuresConfirmed: true,
    founderName: 'Maria Lopez',
    founderTitle: 'Founder and CEO',
    founderStory: 'Twenty years in federal supply.',
  },
  contactInfo: {
    id: 1,
    email: 'info@harbor-federal-supply.com',
    phone: '(555) 010-2000',
    address: '1 Harbor Way\nNorfolk, VA 23510',
    businessHours: 'Monday–Friday 9–5',
    isActive: true,
    displayEmail: true,
    displayPhone: true,
    displayAddress: true,
    displayBusinessHours: true,
    version: 1,
    createdAt: at('2026-01-01'),
    updatedAt: at('2026-01-02'),
  },
} as SiteContent;

const RELEASES = `.releases-test-${process.pid}`;
let base: ReleaseInfo;
let baseline: Map<string, { body: string; ino: number }>;

beforeAll(async () => {
  process.env.RELEASES_DIR = RELEASES;
  process.env.SITE_URL = 'https://www.example.gov';
  base = await buildRelease(content);
  baseline = await pages(base);
}, 180_000);
afterAll(async () => {
  await fs.rm(RELEASES, { recursive: true, force: true });
});

const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;
/**
 * Every value of `value` changed as a save could change it: texts edited, numbers and switches
 * moved (ids and dates kept, and `isPublished`: a snapshot holds only published insights, so
 * unpublishing one is its removal, a change of its own below).
 */
function edited<T>(value: T): T {
  if (typeof value === 'string') return (ISO_DATE.test(value) || value === '' ? value : `${value}x`) as T;
  if (typeof value === 'number') return (value + 1) as T;
  if (typeof value === 'boolean') return !value as T;
  if (Array.isArray(value)) return value.map(edited) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'id' || k === 'isPublished' ? v : edited(v)])) as T;
  return value;
}

/** The pages (HTML, XML, text) and the capability statement (PDF, as base64) of a release, by path. */
async function pages(info: ReleaseInfo): Promise<Map<string, { body: string; ino: number }>> {
  const dir = releaseClientDir(info.id);
  const files = (await fs.readdir(dir, { recursive: true })).map(String).filter((f) => /\.(html|xml|txt|pdf)$/.test(f));
  const out = new Map<string, { body: string; ino: number }>();
  for (const f of files) {
    const full = path.join(dir, f);
    out.set(f, { body: await fs.readFile(full, f.endsWith('.pdf') ? 'base64' : 'utf8'), ino: (await fs.stat(full)).ino });
  }
  return out;
}

type Change = [name: string, change: (c: SiteContent) => SiteContent];
const whole = (key: keyof SiteContent): Change => [key, (c) => ({ ...c, [key]: edited(c[key]) })];
const CHANGES: Change[] = [
  ...(Object.keys(content) as (keyof SiteContent)[]).filter((k) => !['generatedAt', 'blocks', 'year'].includes(k)).map(whole),
  ['year', (c) => ({ ...c, year: c.year + 1 })],
  ...Object.keys(content.blocks).map((section): Change => [
    `blocks.${section}`,
    (c) => ({ ...c, blocks: { ...c.blocks, [section]: edited(c.blocks[section as keyof SiteContent['blocks']]) } }),
  ]),
  ['one insight', (c) => ({ ...c, insights: c.insights.map((i, n) => (n === 1 ? edited(i) : i)) })],
  ['an insight added', (c) => ({ ...c, insights: [...c.insights, { ...c.insights[0]!, id: 999, slug: 'added-one', title: 'Added One' }] })],
  ['an insight removed', (c) => ({ ...c, insights: c.insights.slice(1) })],
  ['one service', (c) => ({ ...c, services: c.services.map((s, n) => (n === 0 ? edited(s) : s)) })],
  ['one past performance entry', (c) => ({ ...c, pastPerformance: c.pastPerformance.map((e, n) => (n === 1 ? edited(e) : e)) })],
  ['a past performance entry removed', (c) => ({ ...c, pastPerformance: c.pastPerformance.slice(1) })],
  // The capability statement's own facts.
  [
    'a contract vehicle added',
    (c) => ({ ...c, company: { ...c.company!, contractVehicles: [{ name: 'GSA MAS', number: '47QSWA24D0001' }] } }),
  ],
  ['PSC codes added', (c) => ({ ...c, company: { ...c.company!, pscCodes: ['7030', 'R408'] } })],
  [
    'a point of contact with a direct line',
    (c) => ({
      ...c,
      company: { ...c.company!, founderName: 'Dana Reyes', contactPersonEmail: 'dana@example.gov', contactPersonPhone: '555 0101' },
    }),
  ],
];

describe('[PUBLISH][INCREMENTAL] a change renders the pages that show it, and keeps the rest', () => {
  it.each(CHANGES)('%s: the same files as a build from nothing; unchanged pages kept as they were', async (_name, change) => {
    const next = change(content);
    const incremental = await pages(await buildRelease(next, { previous: base }));
    const fromNothing = await pages(await buildRelease(next));
    expect([...incremental.keys()].sort()).toEqual([...fromNothing.keys()].sort());
    for (const [file, page] of incremental) expect(page.body, file).toBe(fromNothing.get(file)!.body);
    // The live release is never written through the links it shares with the new one.
    expect(await pages(base)).toEqual(baseline);
  });

  it('an edited insight renders its page, the lists and feeds that show it, and nothing else', async () => {
    const target = content.insights[1]!;
    const next = { ...content, insights: content.insights.map((i) => (i.id === target.id ? { ...i, title: `${i.title} (revised)` } : i)) };
    const info = await buildRelease(next, { previous: base });
    const after = await pages(info);
    const rendered = [...after].filter(([file, page]) => baseline.get(file)?.ino !== page.ino).map(([file]) => file);
    // Not the sitemap (it lists slugs and dates), not the other insights' pages.
    expect(rendered.sort()).toEqual(['insights.html', `insights/${target.slug}.html`, 'rss.xml']);
  });

  it('an edited past-performance entry renders the pages that show it, and nothing else', async () => {
    const next = {
      ...content,
      pastPerformance: content.pastPerformance.map((e, n) => (n === 0 ? { ...e, title: `${e.title} (revised)` } : e)),
    };
    const after = await pages(await buildRelease(next, { previous: base }));
    const rendered = [...after].filter(([file, page]) => baseline.get(file)?.ino !== page.ino).map(([file]) => file);
    expect(rendered.sort()).toEqual(['about.html', 'capabilities.html', 'capability-statement.pdf', 'index.html', 'services/federal.html']);
  });

  it('a chain of publishes, each from the one before, gives what builds from nothing give; reads no page makes are dropped', async () => {
    const target = content.insights[2]!;
    const steps: ((c: SiteContent) => SiteContent)[] = [
      (c) => ({ ...c, insights: c.insights.slice(1) }),
      (c) => ({ ...c, insights: c.insights.map((i) => (i.id === target.id ? { ...i, title: `${i.title} (chained)` } : i)) }),
      (c) => ({ ...c, insights: [...c.insights, { ...c.insights[0]!, id: 998, slug: 'chained-one', title: 'Chained One' }] }),
    ];
    // Built one after the other (the builder keeps the reads it wrote in memory), then checked.
    const chain: [SiteContent, ReleaseInfo][] = [];
    let [now, previous] = [content, base];
    for (const step of steps) {
      now = step(now);
      previous = await buildRelease(now, { previous });
      chain.push([now, previous]);
    }
    for (const [next, info] of chain) {
      const incremental = await pages(info);
      const fromNothing = await pages(await buildRelease(next));
      expect([...incremental.keys()].sort()).toEqual([...fromNothing.keys()].sort());
      for (const [file, page] of incremental) expect(page.body, file).toBe(fromNothing.get(file)!.body);
      const saved = JSON.parse(await fs.readFile(path.join(releaseClientDir(info.id), '..', 'render-reads.json'), 'utf8')) as {
        reads: string[];
        pages: Record<string, number[]>;
      };
      const used = new Set(Object.values(saved.pages).flat());
      expect(used.size, 'every read is made by some page').toBe(saved.reads.length);
    }
    // The title edit changed no page's reads, only what they gave: the reads file is the one before it.
    const readsFile = (info: ReleaseInfo) => path.join(releaseClientDir(info.id), '..', 'render-reads.json');
    expect((await fs.stat(readsFile(chain[1]![1]))).ino).toBe((await fs.stat(readsFile(chain[0]![1]))).ino);
    expect((await fs.stat(readsFile(chain[2]![1]))).ino).not.toBe((await fs.stat(readsFile(chain[1]![1]))).ino);
  });

  it('a release described from what its build knows is the one its files give, with the kept pages as served', async () => {
    const baseDir = releaseClientDir(base.id);
    const served = await loadStaticSite(baseDir);
    // Served, it gets its compressed copies; the next release keeps them with the pages.
    expect(await compressMissing(baseDir, served)).toBeGreaterThan(10);
    const target = content.insights[1]!;
    const next = { ...content, insights: content.insights.map((i) => (i.id === target.id ? { ...i, title: `${i.title} (again)` } : i)) };
    const info = await buildRelease(next, { previous: base });
    const dir = releaseClientDir(info.id);
    const loaded = await loadStaticSite(dir, { dir: baseDir, files: served });
    // Walked and read from disk.
    const fromDisk = await loadStaticSite(dir);
    expect(await mapOf(loaded)).toEqual(await mapOf(fromDisk));
    const changed = ['/insights.html', `/insights/${target.slug}.html`, '/rss.xml'];
    for (const [key, file] of loaded) {
      // An unchanged page keeps the served description, served from the new release.
      if (/\.(html|xml|txt)$/.test(key) && !changed.includes(key)) {
        // (Its bytes, when held in memory, are the served ones: the same buffers.)
        expect({ ...file, path: undefined }, key).toStrictEqual({ ...served.get(key)!, path: undefined });
        expect(file.held, key).toBe(served.get(key)!.held);
        expect(file.path, key).toBe(path.join(dir, key));
      }
    }
    for (const key of changed) expect(loaded.get(key), key).not.toBe(served.get(key));
    expect(await fs.readFile(loaded.get(`/insights/${target.slug}.html`)!.path, 'utf8')).toContain(`${target.title} (again)`);
    // Rendered pages are served uncompressed until their compressed copies are made, then with them.
    const article = `/insights/${target.slug}.html`;
    expect(loaded.get(article)!.encodings).toEqual([]);
    expect(await compressMissing(dir, loaded)).toBe(changed.length);
    for (const key of [article, `/insights/${target.slug}`]) {
      const file = loaded.get(key)!;
      expect(file.encodings).toEqual(['br', 'gzip']);
      const bytes = await fs.readFile(file.path);
      expect(zlib.brotliDecompressSync(await fs.readFile(`${file.path}.br`)).equals(bytes)).toBe(true);
      expect(zlib.gunzipSync(await fs.readFile(`${file.path}.gz`)).equals(bytes)).toBe(true);
    }
    // What was compressed once is not compressed again.
    expect(await compressMissing(dir, loaded)).toBe(0);
    expect(await mapOf(loaded)).toEqual(await mapOf(await loadStaticSite(dir)));
  });

  it('a release served as soon as its new pages are ready serves the pages it keeps from the live release until they are linked', async () => {
    const baseDir = releaseClientDir(base.id);
    const served = await loadStaticSite(baseDir);
    const target = content.insights[1]!;
    const next = { ...content, insights: content.insights.map((i) => (i.id === target.id ? { ...i, title: `${i.title} (ready)` } : i)) };
    let early: StaticMap | undefined;
    const info = await buildRelease(next, {
      previous: base,
      onReady: async (ready, known) => {
        early = await loadStaticSite(releaseClientDir(ready.id), { dir: baseDir, files: served }, known);
        // Every file it names is there to be read, kept ones from the live release.
        for (const [key, file] of early) expect(await fs.stat(file.path).then((s) => s.isFile()), key).toBe(true);
        expect(early.get('/about.html')!.path).toBe(path.join(baseDir, 'about.html'));
      },
    });
    const dir = releaseClientDir(info.id);
    // Once the release is whole on disk, the kept pages are served from it.
    await compressMissing(dir, early!);
    expect(early!.get('/about.html')!.path).toBe(path.join(dir, 'about.html'));
    expect(early!.get('/about')).toBe(early!.get('/about.html'));
    expect(await mapOf(early!)).toEqual(await mapOf(await loadStaticSite(dir)));
  });
});

/**
 * A map's files as comparable values: each path's description, with the digests of the bytes at
 * its path and at its copies', and of the bytes it holds in memory.
 */
async function mapOf(map: StaticMap): Promise<Record<string, unknown>> {
  const hash = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const digest = async (file: string) => hash(await fs.readFile(file));
  const held = (f: StaticFile) =>
    f.held && Object.fromEntries(Object.entries(f.held).map(([k, v]) => [k, v && { ...v, bytes: hash(v.bytes) }]));
  return Object.fromEntries(
    await Promise.all(
      [...map].map(async ([key, f]) => [
        key,
        {
          ...f,
          path: await digest(f.path),
          copies: await Promise.all(f.encodings.map((e) => digest(f.path + (e === 'br' ? '.br' : '.gz')))),
          held: held(f),
        },
      ]),
    ),
  );
}
