import { describe, expect, it } from 'vitest';
import { rememberedSearch } from '#server/services/insight-search.ts';
import { searchExcerpt } from '#server/services/search-excerpt.ts';

const text = (parts: { text: string }[]) => parts.map((p) => p.text).join('');
const marked = (parts: { text: string; mark?: true }[]) => parts.filter((p) => p.mark).map((p) => p.text);

describe('[SITE][SEARCH] the passage a result shows', () => {
  it('cuts up to 8 words before the first match and 32 in all, marking every matching word in it', () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    words[40] = 'Exclusions';
    words[50] = 'exclusions';
    const parts = searchExcerpt(words.join(' '), ['exclusions']);
    expect(text(parts).split(' ')).toEqual(words.slice(32, 64));
    expect(marked(parts)).toEqual(['Exclusions', 'exclusions']);
  });

  it('matches another form of the word (its stem) and, for the last word, its beginning', () => {
    const parts = searchExcerpt('Our suppliers were vetted twice. Vetting takes a week of exclusion checks.', ['vetting', 'exclu']);
    expect(marked(parts)).toEqual(['vetted', 'Vetting', 'exclusion']);
    expect(text(parts)).toBe('Our suppliers were vetted twice. Vetting takes a week of exclusion checks');
  });

  it('reads paragraphs as one line, keeps punctuation, and starts at the text when nothing matches', () => {
    const parts = searchExcerpt('First paragraph, here.\n\nSecond one: more words.', ['zanzibarite']);
    expect(parts).toEqual([{ text: 'First paragraph, here. Second one: more words' }]);
    expect(searchExcerpt('', ['x'])).toEqual([]);
    expect(searchExcerpt('... ---', ['x'])).toEqual([]);
  });

  it('a long article: 15,000 characters, the match at its very end', () => {
    const article = `${'federal supply contract vetting supplier exclusions cameras thermal station dust heat procurement. '.repeat(160)} zanzibarite.`;
    expect(article.length).toBeGreaterThan(15_000);
    searchExcerpt(article, ['zanzibarite']);
    const started = performance.now();
    for (let i = 0; i < 100; i++) expect(marked(searchExcerpt(article, ['zanzibarite']))).toEqual(['zanzibarite']);
    console.log(`excerpt of a 15,000-character article: ${((performance.now() - started) / 100).toFixed(3)} ms`);
  });
});

describe('[SITE][SEARCH] the same words are answered from memory until what visitors see changes', () => {
  /** The serving engine's content generation (publish/live-site.ts). */
  let generation = 0;
  const live = { generation: () => generation };
  const contentChanged = () => void generation++;
  const answer = (n: number) => Promise.resolve({ total: n, results: [] });

  it('one search per words (however they were typed); a content change or a new release searches again', async () => {
    let searched = 0;
    const search = () => answer(++searched);
    contentChanged();
    expect(await rememberedSearch('Vetting  suppliers', live, search)).toEqual({ total: 1, results: [] });
    expect(await rememberedSearch('vetting, SUPPLIERS!', live, search)).toEqual({ total: 1, results: [] });
    expect(await rememberedSearch('vetting', live, search)).toEqual({ total: 2, results: [] });
    contentChanged();
    expect(await rememberedSearch('vetting suppliers', live, search)).toEqual({ total: 3, results: [] });
    expect(searched).toBe(3);
  });

  it('a failed search is not kept, and at most 500 searches are kept, the oldest forgotten first', async () => {
    contentChanged();
    await expect(rememberedSearch('broken', live, () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await rememberedSearch('broken', live, () => answer(7))).toEqual({ total: 7, results: [] });
    for (let i = 0; i < 500; i++) await rememberedSearch(`word${i}`, live, () => answer(i));
    // "broken" was the oldest: forgotten; word1 is still known.
    expect(await rememberedSearch('broken', live, () => answer(8))).toEqual({ total: 8, results: [] });
    expect(await rememberedSearch('word1', live, () => answer(-1))).toEqual({ total: 1, results: [] });
  });
});
