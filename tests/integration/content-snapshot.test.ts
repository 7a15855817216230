import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { isSnapshot, snapshotContent, type SiteContent } from '#server/content/site-content.ts';
import { sql } from 'drizzle-orm';
import { insightsWithPages } from '#server/content/public-content.ts';
import { openDatabase, setDbHandle } from '#server/db/client.ts';
import { seed } from '#server/services/seed.ts';
import { contentHash } from '#server/publish/releases.ts';
import { createPostgresDatabase, openTestDatabase, seededContent } from './helpers/db';

/*
 * A publish renders every page from one snapshot of the content. Postgres only: the embedded
 * database has one connection, so nothing can commit between the snapshot's queries there.
 */
const base = process.env.DATABASE_URL;
const CHANGED = 'Changed While Read LLC';

describe.skipIf(!base)('[PUBLISH] the content snapshot is one point in time', () => {
  it('a save committed while the snapshot is being read is not in it', async () => {
    const database = await createPostgresDatabase(base!);
    const handle = await openDatabase({ url: database.url });
    const writer = postgres(database.url, { max: 1, onnotice: () => {} });
    const watcher = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const before = await snapshotContent(handle.db);
      expect(before.company.legalName).not.toBe(CHANGED);

      let reading: Promise<SiteContent> | undefined;
      await writer.begin(async (tx) => {
        // The snapshot reads the documents before the company profile: it waits here, mid-way.
        await tx`lock table document in access exclusive mode`;
        reading = snapshotContent(handle.db);
        const until = Date.now() + 10_000;
        for (;;) {
          const [row] = await watcher`select count(*)::int as n from pg_locks where not granted and relation = 'document'::regclass`;
          if (row!.n > 0) break;
          if (Date.now() > until) throw new Error('the snapshot never reached the documents');
          await new Promise((r) => setTimeout(r, 20));
        }
        await tx`update company_profile set legal_name = ${CHANGED}`;
      });

      expect((await reading!).company.legalName).toBe(before.company.legalName);
      expect((await snapshotContent(handle.db)).company.legalName).toBe(CHANGED);
    } finally {
      await writer.end();
      await watcher.end();
      await handle.close();
      await database.drop();
    }
  });
});

describe("[PUBLISH] a snapshot's hash", () => {
  it('is the same for the same content made otherwise, and changes with anything it says', async () => {
    const snapshot = await seededContent();
    const copy = JSON.parse(JSON.stringify(snapshot)) as SiteContent;
    expect(isSnapshot(snapshot)).toBe(true);
    expect(isSnapshot(copy)).toBe(false);
    expect(contentHash(snapshot)).toBe(contentHash(copy));
    expect(contentHash(snapshot)).toBe(contentHash(snapshot));
    // Not the moment it was read; anything else it says.
    expect(contentHash({ ...copy, generatedAt: '2000-01-01T00:00:00.000Z' })).toBe(contentHash(snapshot));
    expect(contentHash({ ...copy, year: copy.year + 1 })).not.toBe(contentHash(snapshot));
    expect(contentHash({ ...copy, insights: copy.insights.slice(1) })).not.toBe(contentHash(snapshot));
    expect(contentHash({ ...copy, insights: [...copy.insights].reverse() })).not.toBe(contentHash(snapshot));
    const [first, ...others] = copy.insights;
    expect(contentHash({ ...copy, insights: [{ ...first!, content: `${first!.content}.` }, ...others] })).not.toBe(contentHash(snapshot));
  });
});

describe('[PUBLISH] a snapshot reads again only the insights that changed', () => {
  it('follows every write to the insight table, whoever made it, and shares the rows that did not change', async () => {
    const handle = await openTestDatabase();
    setDbHandle(handle);
    try {
      await seed(handle.db);
      const run = (statement: string) => handle.db.execute(sql.raw(statement));
      // What the last snapshot read, as an engine keeps it (publish/release-store.ts).
      const memo = {};
      const first = await snapshotContent(handle.db, memo);
      expect(first.insights.length).toBeGreaterThanOrEqual(3);
      const [a, b, c] = first.insights;
      // Written by hand, not through the app: no version or updated_at changes.
      await run(`update insight set title = 'Edited by hand' where id = ${a!.id}`);
      await run(`update insight set is_published = false where id = ${b!.id}`);
      await run(
        `insert into insight (title, slug, excerpt, content, is_published, publication_date, author_name, author_title)
         values ('Restored article', 'restored-article', 'An excerpt.', 'The body.', true, now() + interval '1 day', 'Dana Reyes', 'Lead')`,
      );
      const second = await snapshotContent(handle.db, memo);
      const fromScratch = await insightsWithPages(handle.db);
      expect(second.insights).toEqual(JSON.parse(JSON.stringify(fromScratch)));
      expect(second.insights[0]!.slug).toBe('restored-article');
      expect(second.insights.find((i) => i.id === a!.id)!.title).toBe('Edited by hand');
      expect(second.insights.some((i) => i.id === b!.id)).toBe(false);
      // An untouched article is the very object the first snapshot read.
      expect(second.insights.find((i) => i.id === c!.id)).toBe(c);
      expect(contentHash(second)).not.toBe(contentHash(first));

      await run(`delete from insight where id = ${c!.id}`);
      // Published, but named like the section's not-found page: it gets no page, so no snapshot holds it.
      await run(`update insight set slug = '404' where id = ${a!.id}`);
      await run(`update insight set is_published = true where id = ${b!.id}`);
      const third = await snapshotContent(handle.db, memo);
      expect(third.insights).toEqual(JSON.parse(JSON.stringify(await insightsWithPages(handle.db))));
      expect(third.insights.some((i) => i.id === c!.id)).toBe(false);
      expect(third.insights.some((i) => i.id === a!.id)).toBe(false);
      expect(third.insights.some((i) => i.id === b!.id)).toBe(true);
      expect(contentHash(third)).toBe(contentHash(JSON.parse(JSON.stringify(third)) as SiteContent));
    } finally {
      setDbHandle(undefined);
      await handle.close();
    }
  });
});

describe.skipIf(!base)('[PUBLISH] a snapshot after a bulk insert', () => {
  it('reads more changed rows than a query may have parameters', async () => {
    const database = await createPostgresDatabase(base!);
    const handle = await openDatabase({ url: database.url });
    try {
      await seed(handle.db);
      const memo = {};
      const first = await snapshotContent(handle.db, memo);
      // As a restore or a bulk SQL insert would: past Postgres's 65,535 bound parameters.
      const count = 66_000;
      await handle.db.execute(
        sql.raw(
          `insert into insight (title, slug, excerpt, content, is_published, publication_date, author_name, author_title)
           select 'Bulk ' || n, 'bulk-' || n, 'An excerpt.', 'The body.', true, now() - n * interval '1 minute', 'Dana Reyes', 'Lead'
           from generate_series(1, ${count}) as n`,
        ),
      );
      const second = await snapshotContent(handle.db, memo);
      expect(second.insights.length).toBe(first.insights.length + count);
      expect(second.insights[0]!.slug).toBe('bulk-1');
    } finally {
      await handle.close();
      await database.drop();
    }
  }, 60_000);
});
