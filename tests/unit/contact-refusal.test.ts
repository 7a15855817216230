import { describe, expect, it } from 'vitest';
import { tryAgainIn } from '#server/services/contact.ts';

describe('[LEADS][FLOOD] the refusal says when to try again, from its own Retry-After', () => {
  it.each([
    [1, 'in a minute'],
    [60, 'in a minute'],
    [61, 'in 2 minutes'],
    [30 * 60, 'in 30 minutes'],
    [54 * 60, 'in 54 minutes'],
    [55 * 60, 'in an hour'],
    [3600, 'in an hour'],
    [5399, 'in an hour'],
    [5400, 'in 2 hours'],
    [86_383, 'in 24 hours'],
  ])('%i s: %s', (seconds, words) => {
    expect(tryAgainIn(seconds)).toBe(words);
  });
});
