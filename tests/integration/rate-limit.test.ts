import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '#server/db/client.ts';
import { enforce, hit } from '#server/services/rate-limit.ts';
import { openTestDatabase } from './helpers/db';

let h: DbHandle;
beforeAll(async () => {
  h = await openTestDatabase();
});
afterAll(() => h?.close());

describe('[DB] rate limits kept in the database', () => {
  it('allows up to the limit in a window, then refuses with a Retry-After, then a new window starts', async () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    for (let i = 1; i <= 5; i++) expect((await hit(h.db, 'login:1.2.3.4', 5, 60_000, t0)).allowed).toBe(true);
    const sixth = await hit(h.db, 'login:1.2.3.4', 5, 60_000, new Date(t0.getTime() + 20_000));
    expect(sixth).toMatchObject({ allowed: false, count: 6, retryAfterSeconds: 40 });
    await expect(enforce(h.db, 'login:1.2.3.4', 5, 60_000, 'slow down', new Date(t0.getTime() + 30_000))).rejects.toMatchObject({
      status: 429,
      headers: { 'retry-after': '30' },
    });
    const later = await hit(h.db, 'login:1.2.3.4', 5, 60_000, new Date(t0.getTime() + 61_000));
    expect(later).toMatchObject({ allowed: true, count: 1 });
    expect((await hit(h.db, 'login:5.6.7.8', 5, 60_000, t0)).count).toBe(1);
  });
});
