import { describe, expect, it } from 'vitest';
import { HttpError } from '#server/http.ts';
import { countSearch, SEARCHES_PER_MINUTE } from '#server/services/search-limit.ts';

describe('search limit', () => {
  it('a client may search SEARCHES_PER_MINUTE times a minute; the next is a 429 until the minute is over; others are not affected', () => {
    const t0 = 1_000_000;
    for (let i = 0; i < SEARCHES_PER_MINUTE; i++) countSearch('198.51.100.7', t0 + i);
    let refused: unknown;
    try {
      countSearch('198.51.100.7', t0 + 30_000);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(429);
    expect((refused as HttpError).headers).toEqual({ 'retry-after': '30' });
    expect(() => countSearch('198.51.100.8', t0 + 30_000)).not.toThrow();
    expect(() => countSearch('198.51.100.7', t0 + 60_000)).not.toThrow();
  });
});
