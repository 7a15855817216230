import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { isSnapshot, snapshotContent, snapshotText, type SiteContent } from '#server/content/site-content.ts';
import { openDatabase } from '#server/db/client.ts';
import { contentHash } from '#server/publish/releases.ts';
import { createPostgresDatabase, seededContent } from './helpers/db';

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

describe('[PUBLISH] a snapshot is serialised once', () => {
  it('its hash and its stored text are those of its JSON, as for the same content made otherwise', async () => {
    const snapshot = await seededContent();
    const copy = JSON.parse(JSON.stringify(snapshot)) as SiteContent;
    expect(isSnapshot(snapshot)).toBe(true);
    expect(isSnapshot(copy)).toBe(false);
    expect(snapshotText(snapshot)).toBe(JSON.stringify(snapshot));
    expect(snapshotText(copy)).toBe(JSON.stringify(copy));
    expect(contentHash(snapshot)).toBe(contentHash(copy));
    expect(contentHash(snapshot)).toBe(contentHash(snapshot));
    // Not the moment it was read; anything else it says.
    expect(contentHash({ ...copy, generatedAt: '2000-01-01T00:00:00.000Z' })).toBe(contentHash(snapshot));
    expect(contentHash({ ...copy, year: copy.year + 1 })).not.toBe(contentHash(snapshot));
    expect(contentHash({ ...copy, insights: copy.insights.slice(1) })).not.toBe(contentHash(snapshot));
  });
});
