import { count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentBlocks, emailTemplates, features, headerCta, insights, services, users } from '#server/db/schema/index.ts';
import { seed } from '#server/services/seed.ts';
import { STARTING_INSIGHTS } from '#server/services/starting-insights.ts';
import type { DbHandle } from '#server/db/client.ts';
import { openTestDatabase } from './helpers/db';

let h: DbHandle;
beforeAll(async () => {
  h = await openTestDatabase();
});
afterAll(() => h?.close());

async function rows(table: PgTable) {
  const [r] = await h.db.select({ n: count() }).from(table);
  return r!.n;
}

describe('[DB] seed', () => {
  it('stores the fallback copy, one template of each type and a first admin', async () => {
    process.env.ADMIN_USERNAME = 'owner';
    process.env.ADMIN_EMAIL = 'owner@example.com';
    process.env.ADMIN_PASSWORD = 'correct horse battery';
    const first = await seed(h.db);
    expect(first.admin).toMatchObject({ username: 'owner' });
    expect(first.admin?.generatedPassword).toBeUndefined();
    expect(await rows(contentBlocks)).toBe(7);
    // Three home and three about cards, and the federal page's six product cards.
    expect(await rows(features)).toBe(12);
    expect(await rows(services)).toBe(3);
    expect(await rows(emailTemplates)).toBe(2);
    expect(await rows(insights)).toBe(3);
    const [admin] = await h.db.select().from(users).where(eq(users.username, 'owner'));
    expect(admin?.role).toBe('admin');
  });

  it('is idempotent: running again adds nothing', async () => {
    const again = await seed(h.db);
    expect(again.inserted).toEqual([]);
    const once = await seed(h.db, { onlyOnce: true });
    expect(once.inserted).toEqual([]);
    expect(await rows(features)).toBe(12);
    expect(await rows(users)).toBe(1);
  });

  it('db:seed re-applies a missing row; the start-up seed does not', async () => {
    await h.db.delete(services).where(eq(services.title, 'Supplier Management & Sourcing'));
    expect((await seed(h.db, { onlyOnce: true })).inserted).toEqual([]);
    expect(await rows(services)).toBe(2);
    expect((await seed(h.db)).inserted).toEqual(['service:Supplier Management & Sourcing']);
    expect(await rows(services)).toBe(3);
  });

  it('the starting articles are keyed by slug: an edited one is kept, a deleted one comes back only with db:seed', async () => {
    const [edited, deleted] = STARTING_INSIGHTS;
    await h.db.update(insights).set({ title: 'Edited by an administrator', isPublished: false }).where(eq(insights.slug, edited!.slug));
    await h.db.delete(insights).where(eq(insights.slug, deleted!.slug));
    expect((await seed(h.db, { onlyOnce: true })).inserted).toEqual([]);
    expect((await seed(h.db)).inserted).toEqual([`insight:${deleted!.slug}`]);
    const [kept] = await h.db.select().from(insights).where(eq(insights.slug, edited!.slug));
    expect(kept).toMatchObject({ title: 'Edited by an administrator', isPublished: false });
    const [back] = await h.db.select().from(insights).where(eq(insights.slug, deleted!.slug));
    expect(back).toMatchObject({ title: deleted!.title, isPublished: true, publicationDate: new Date(deleted!.publicationDate) });
    expect(await rows(insights)).toBe(3);
  });
});

describe('[DB] constraints', () => {
  const insight = { title: 'T', excerpt: 'An excerpt', content: 'c'.repeat(60), authorName: 'A', authorTitle: 'B' };

  it('insight slugs are unique and lowercase-hyphenated', async () => {
    await h.db.insert(insights).values({ ...insight, slug: 'unique-slug' });
    await expect(h.db.insert(insights).values({ ...insight, slug: 'unique-slug' })).rejects.toThrow();
    await expect(h.db.insert(insights).values({ ...insight, slug: 'Bad Slug' })).rejects.toThrow();
  });

  it('only one header CTA can be active', async () => {
    await expect(h.db.insert(headerCta).values({ buttonText: 'x', buttonLink: '/x', isActive: true })).rejects.toThrow();
    await h.db.insert(headerCta).values({ buttonText: 'x', buttonLink: '/x', isActive: false });
  });

  it('displayOrder cannot be negative', async () => {
    await expect(h.db.insert(features).values({ title: 'a', description: 'b', icon: 'c', displayOrder: -1 })).rejects.toThrow();
  });

  it('updated_at moves on update', async () => {
    const [before] = await h.db.select().from(contentBlocks).where(eq(contentBlocks.section, 'intro'));
    await new Promise((r) => setTimeout(r, 5));
    const [after] = await h.db.update(contentBlocks).set({ title: 'New' }).where(eq(contentBlocks.id, before!.id)).returning();
    expect(after!.updatedAt.getTime()).toBeGreaterThan(before!.updatedAt.getTime());
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('[DB] the embedded database', () => {
  it('runs with 16 MB of shared buffers, not Postgres’s 128 MB the process would hold from the start', async () => {
    const result = (await h.pglite!.query<{ shared_buffers: string }>('show shared_buffers')).rows[0];
    expect(result?.shared_buffers).toBe('16MB');
  });
});
