import { describe, expect, it } from 'vitest';
import { SEARCH_MAX_WORDS, searchQuery } from '#server/services/insight-search.ts';

describe('[SITE][SEARCH] what a visitor types, as a full-text query', () => {
  it('keeps the words (letters and digits, any script), all required, the last one also as a prefix', () => {
    expect(searchQuery('Supplier vetting')).toBe('supplier & vetting:*');
    expect(searchQuery('  FAR 52.204-21 ')).toBe('far & 52 & 204 & 21:*');
    expect(searchQuery('Économie du marché')).toBe('économie & du & marché:*');
  });

  it('drops every character of the query syntax, so nothing typed is an operator', () => {
    expect(searchQuery(`a & b | !c <-> d:* 'e' (f)`)).toBe('a & b & c & d & e & f:*');
    expect(searchQuery(`'; drop table insight; --`)).toBe('drop & table & insight:*');
  });

  it('nothing searchable is no query; a long one is cut to its first words', () => {
    for (const typed of ['', '   ', '"&|!:*()<>', '\\']) expect(searchQuery(typed)).toBeNull();
    const many = Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ');
    expect(searchQuery(many)!.split(' & ')).toHaveLength(SEARCH_MAX_WORDS);
  });
});
