/**
 * Publishing as the site grows: articles of about 1,200 words are inserted in bulk (as a restore
 * would) until there are 3, 100, 1,000 and 3,000 (BENCH_GROWTH_SIZES), and at each size an
 * insight is saved through the API as the back office saves it (5 times, timed until its page
 * answers with the new title), then the header title (timed until the publish has gone live, with
 * the peak resident memory of the server's process tree against idle), then the company's name
 * (every page again), and the media library's first page is asked for (24 images, each with where
 * it is used: every tenth article shows one of them). Postgres only (DATABASE_URL): the embedded database cannot be written while the server owns it.
 */
import postgres from 'postgres';
import { adminHeaders, benchServerEnv, median, sleep, startServer, treeRssMb } from './shared';

const ADMIN = { username: 'admin', email: 'admin@example.com', password: 'bench-admin-password' };
const SIZES = (process.env.BENCH_GROWTH_SIZES ?? '3,100,1000,3000').split(',').map(Number);
const RUNS = 5;
const PUBLISHES = Number(process.env.BENCH_GROWTH_PUBLISHES ?? 0);

export interface GrowthRow {
  articles: number;
  insightSaveMs: number[];
  insightMedianMs: number;
  insightWorstMs: number;
  headerSaveMs: number;
  idleMb: number;
  headerPeakMb: number;
  /** The company's legal name saved: every page rendered again. */
  companySaveMs: number;
  /** From the same save until every page of it has its compressed copies (made once it is live). */
  companyCompressedMs: number;
  companyIdleMb: number;
  companyPeakMb: number;
  insightsHtmlKb: number;
  sitemapKb: number;
  /** GET /api/admin/images (the media library's first page, with each image's uses), median of 5. */
  libraryMs: number;
  /** BENCH_GROWTH_PUBLISHES: the tree's idle memory after the first of them and after them all. */
  publishes?: { count: number; firstIdleMb: number; lastIdleMb: number; ms: number };
}

const WORDS = 'procurement agency contract award supplier schedule compliance pricing delivery vehicle small business market'.split(' ');
function article(n: number): string {
  const paragraphs: string[] = [];
  for (let p = 0; p < 12; p++) {
    paragraphs.push(Array.from({ length: 100 }, (_, w) => WORDS[(n * 7 + p * 13 + w) % WORDS.length]).join(' ') + '.');
  }
  return paragraphs.join('\n\n');
}

export async function run(): Promise<GrowthRow[] | { skipped: string }> {
  if (!process.env.DATABASE_URL) {
    console.log('growth: needs DATABASE_URL (Postgres); skipped');
    return { skipped: 'needs DATABASE_URL' };
  }
  const { env, base, databaseUrl, cleanUp } = await benchServerEnv('growth', ADMIN);
  // The server says at debug level when a release's pages have their compressed copies.
  env.LOG_LEVEL = 'debug';
  const published: { release: string; durationMs: number; astroMs: number; loadMs: number; at: number }[] = [];
  // When the server said that it had compressed the pages of a release (performance.now()).
  const compressedAt = new Map<string, number>();
  const { child: server } = await startServer(env, (entry) => {
    if (entry.msg === 'published') published.push({ ...(entry as unknown as (typeof published)[number]), at: performance.now() });
    if (entry.msg === 'pages compressed') compressedAt.set(entry.release as string, performance.now());
  });
  /** Waits until the pages of the last release published have their compressed copies; answers when they had. */
  const compressed = async () => {
    const last = published.at(-1);
    const t0 = performance.now();
    while (last && !compressedAt.has(last.release) && performance.now() - t0 < 300_000) await sleep(25);
    return last ? compressedAt.get(last.release)! : 0;
  };
  const sql = postgres(databaseUrl!, { max: 1, onnotice: () => {} });
  const rows: GrowthRow[] = [];
  try {
    const admin = await adminHeaders(base, ADMIN);
    const status = async () => (await (await fetch(`${base}/api/admin/publish/status`, { headers: admin })).json()) as { state: string };
    const settle = async () => {
      await sleep(150);
      for (let s = await status(); s.state === 'queued' || s.state === 'building'; s = await status()) await sleep(25);
    };
    const page = async (path: string) => (await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity' } })).text();
    const until = async (path: string, text: string) => {
      const t0 = performance.now();
      while (!(await page(path)).includes(text)) {
        if (performance.now() - t0 > 300_000) throw new Error(`${path} never showed ${text}`);
        await sleep(10);
      }
      return Math.round(performance.now() - t0);
    };
    const header = (await (await fetch(`${base}/api/content/header/active`)).json()) as { id: number };
    // The media library's images, as uploads leave them (the rows: the pages use their sizes; the
    // files themselves are never read here).
    const images = Array.from({ length: 24 }, (_, i) => {
      const key = `images/${i.toString(16).padStart(32, 'b')}.jpg`;
      return { kind: 'image', storage: 'local', key, url: `/uploads/${key}`, original_name: `photo-${i}.jpg`, width: 1600, height: 900 };
    });
    await sql`insert into upload ${sql(images)} on conflict (key) do nothing`;

    for (const size of SIZES) {
      const [{ n } = { n: 0 }] = await sql<{ n: number }[]>`select count(*)::int as n from insight`;
      const missing = Math.max(0, size - n);
      for (let from = 0; from < missing; from += 500) {
        const batch = Array.from({ length: Math.min(500, missing - from) }, (_, k) => {
          const i = n + from + k;
          return {
            title: `Growth article ${i}`,
            slug: `growth-article-${i}`,
            category: 'market_analysis',
            excerpt: `What buyers should know, part ${i}.`,
            content: article(i),
            is_published: true,
            publication_date: new Date(Date.now() - (i + 1) * 3_600_000),
            read_minutes: 6,
            author_name: 'Dana Reyes',
            author_title: 'Procurement Lead',
            featured_image: i % 10 === 0 ? images[i % images.length]!.url : null,
            featured_image_alt: i % 10 === 0 ? 'A photo' : null,
          };
        });
        await sql`insert into insight ${sql(batch)}`;
      }
      // The bulk insert is published as a restore would be: one publish of everything, whose
      // pages are compressed before the saves below are timed.
      await fetch(`${base}/api/admin/publish`, { method: 'POST', headers: admin });
      await settle();
      await compressed();

      const [target] = await sql<{ id: number; slug: string }[]>`select id, slug from insight where is_published order by id limit 1`;
      const saveInsight = async (title: string) => {
        const [{ version } = { version: 1 }] = await sql<{ version: number }[]>`select version from insight where id = ${target!.id}`;
        const res = await fetch(`${base}/api/admin/insights/${target!.id}`, {
          method: 'PATCH',
          headers: admin,
          body: JSON.stringify({ title, version }),
        });
        if (!res.ok) throw new Error(`saving the insight failed: ${res.status} ${await res.text()}`);
      };
      const insightSaveMs: number[] = [];
      for (let r = 1; r <= RUNS; r++) {
        const title = `Revised title ${r} ${Date.now().toString(36)}`;
        await saveInsight(title);
        insightSaveMs.push(await until(`/insights/${target!.slug}`, title));
        await settle();
        const last = published.at(-1);
        if (last) console.log(`  insight save: build ${last.durationMs} ms (rendering ${last.astroMs} ms), load ${last.loadMs} ms`);
      }

      let publishes: GrowthRow['publishes'];
      if (PUBLISHES > 0 && size === SIZES[0]) {
        await sleep(2000);
        const firstIdleMb = treeRssMb(server.pid!);
        const t0 = performance.now();
        for (let r = 1; r <= PUBLISHES; r++) {
          await saveInsight(`Publish ${r} ${Date.now().toString(36)}`);
          await settle();
          if (r % 100 === 0) console.log(`  ${r} publishes, tree RSS ${treeRssMb(server.pid!)} MB`);
        }
        const ms = Math.round(performance.now() - t0);
        await sleep(2000);
        publishes = { count: PUBLISHES, firstIdleMb, lastIdleMb: treeRssMb(server.pid!), ms };
      }

      // Idle: the pages of the publishes above compressed.
      await compressed();
      await sleep(1000);
      const idleMb = treeRssMb(server.pid!);
      let peak = idleMb;
      const sampler = setInterval(() => (peak = Math.max(peak, treeRssMb(server.pid!))), 20);
      const title = `Growth header ${size} ${Date.now().toString(36)}`;
      const t0 = performance.now();
      const res = await fetch(`${base}/api/content/header/${header.id}`, {
        method: 'PATCH',
        headers: admin,
        body: JSON.stringify({ title }),
      });
      if (!res.ok) throw new Error(`saving the header failed: ${res.status}`);
      await until('/', title);
      await settle();
      const headerSaveMs = Math.round(performance.now() - t0);
      clearInterval(sampler);

      // A change every page shows (the company's name is in every page's footer): every page is
      // rendered again.
      await compressed();
      await sleep(1000);
      const companyIdleMb = treeRssMb(server.pid!);
      let companyPeak = companyIdleMb;
      const companySampler = setInterval(() => (companyPeak = Math.max(companyPeak, treeRssMb(server.pid!))), 20);
      const profile = (await (await fetch(`${base}/api/admin/company-profile`, { headers: admin })).json()) as { version: number };
      const legalName = `Growth Supply ${size} ${Date.now().toString(36)} LLC`;
      const c0 = performance.now();
      const saved = await fetch(`${base}/api/admin/company-profile`, {
        method: 'PATCH',
        headers: admin,
        body: JSON.stringify({ legalName, version: profile.version }),
      });
      if (!saved.ok) throw new Error(`saving the company name failed: ${saved.status} ${await saved.text()}`);
      await until(`/insights/${target!.slug}`, legalName);
      await settle();
      const companySaveMs = Math.round(performance.now() - c0);
      const companyPeakLive = companyPeak;
      const companyCompressedMs = Math.round((await compressed()) - c0);
      const build = published.at(-1)!;
      console.log(
        `  company name save: build ${build.durationMs} ms (rendering ${build.astroMs} ms), load ${build.loadMs} ms; peak ${companyPeakLive} MB until live, ${companyPeak} MB until compressed`,
      );
      clearInterval(companySampler);

      const libraryMs: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const l0 = performance.now();
        const res = await fetch(`${base}/api/admin/images?page=1`, { headers: admin });
        const listed = (await res.json()) as { images: { usedIn: string[] }[] };
        libraryMs.push(Math.round(performance.now() - l0));
        if (r === 0)
          console.log(`  media library: ${listed.images.filter((image) => image.usedIn.length > 0).length} of its first page in use`);
      }

      rows.push({
        articles: size,
        insightSaveMs,
        insightMedianMs: median(insightSaveMs),
        insightWorstMs: Math.max(...insightSaveMs),
        headerSaveMs,
        idleMb,
        headerPeakMb: peak,
        companySaveMs,
        companyCompressedMs,
        companyIdleMb,
        companyPeakMb: companyPeak,
        insightsHtmlKb: Math.round((await page('/insights')).length / 1024),
        sitemapKb: Math.round((await page('/sitemap.xml')).length / 1024),
        libraryMs: median(libraryMs),
        publishes,
      });
      console.log(JSON.stringify(rows.at(-1)));
    }
    console.log(
      '| Articles | Insight save → live, median / worst (ms) | Header save → all live (ms) | Tree RSS idle / peak (MB) | Company name save → all live (ms) | … → all compressed (ms) | Tree RSS idle / peak (MB) | /insights | sitemap | Media library page (ms) |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      console.log(
        `| ${r.articles} | ${r.insightMedianMs} / ${r.insightWorstMs} | ${r.headerSaveMs} | ${r.idleMb} / ${r.headerPeakMb} | ${r.companySaveMs} | ${r.companyCompressedMs} | ${r.companyIdleMb} / ${r.companyPeakMb} | ${r.insightsHtmlKb} KB | ${r.sitemapKb} KB | ${r.libraryMs} |`,
      );
    }
    for (const { articles, publishes: p } of rows) {
      if (!p) continue;
      console.log(
        `\n| Articles | Publishes | Tree RSS idle after the first / after all (MB) | Ratio | Time |\n|---|---|---|---|---|\n` +
          `| ${articles} | ${p.count} | ${p.firstIdleMb} / ${p.lastIdleMb} | ${(p.lastIdleMb / p.firstIdleMb).toFixed(2)} | ${Math.round(p.ms / 1000)} s |`,
      );
    }
    return rows;
  } finally {
    await sql.end();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    cleanUp();
  }
}
