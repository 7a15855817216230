import { describe, expect, it } from 'vitest';
import { loadNaics, naicsTitle, searchNaics, sectorOf, successorsOf } from '../../src/admin/tabs/company/naics';
import { SUCCESSORS_2022 } from '../../src/admin/tabs/company/naics-successors';

describe('the 2022 NAICS list', async () => {
  const list = await loadNaics();

  it('holds the 1,012 national industries, each a unique 6-digit code with a title, in code order', () => {
    expect(list).toHaveLength(1012);
    const codes = list.map(([code]) => code);
    expect(new Set(codes).size).toBe(1012);
    expect(codes.every((c) => /^\d{6}$/.test(c))).toBe(true);
    expect([...codes].sort()).toEqual(codes);
    expect(list.every(([, title]) => title.length > 2 && title === title.trim())).toBe(true);
    expect(list.every(([code]) => sectorOf(code) !== '')).toBe(true);
  });

  it('has the 2022 titles: codes retired in 2022 are absent and their successors present', () => {
    expect(naicsTitle(list, '423430')).toBe('Computer and Computer Peripheral Equipment and Software Merchant Wholesalers');
    expect(naicsTitle(list, '449210')).toBe('Electronics and Appliance Retailers');
    // 2017's Electronics Stores and Software Publishers codes were replaced in 2022.
    expect(naicsTitle(list, '443142')).toBeUndefined();
    expect(naicsTitle(list, '511210')).toBeUndefined();
    expect(naicsTitle(list, '513210')).toBe('Software Publishers');
  });

  it('finds by the start of a code', () => {
    const found = searchNaics(list, '3341');
    expect(found.map(([code]) => code)).toEqual(['334111', '334112', '334118']);
    expect(found.every(([code]) => code.startsWith('3341'))).toBe(true);
    expect(searchNaics(list, '423430').map(([c]) => c)).toEqual(['423430']);
  });

  it('finds by the starts of words, title words before sector words', () => {
    expect(searchNaics(list, 'comp whole').map(([c]) => c)).toContain('423430');
    expect(searchNaics(list, 'Electronics retail')[0]?.[0]).toBe('449210');
    const kitchen = searchNaics(list, 'food machinery');
    expect(kitchen[0]?.[0]).toBe('333241');
    // 'manufacturing' is in the sector's name as well as in most of its titles.
    expect(searchNaics(list, 'manufacturing').every(([c]) => /^3[123]/.test(c))).toBe(true);
  });

  it('finds nothing for an empty query or words no title has', () => {
    expect(searchNaics(list, '   ')).toEqual([]);
    expect(searchNaics(list, 'xyzzy')).toEqual([]);
    expect(searchNaics(list, '99')).toEqual([]);
  });

  it('names the 2022 successors of retired 2017 codes, every one a 2022 code, and none for a current code', () => {
    expect(successorsOf(list, '443142')).toEqual([['449210', 'Electronics and Appliance Retailers']]);
    expect(successorsOf(list, '511210')).toEqual([['513210', 'Software Publishers']]);
    expect(successorsOf(list, '519130').map(([c]) => c)).toEqual(['516210', '519290']);
    expect(successorsOf(list, '423430')).toEqual([]);
    expect(successorsOf(list, 'constructor')).toEqual([]);
    for (const [retired, successors] of Object.entries(SUCCESSORS_2022)) {
      expect(naicsTitle(list, retired), retired).toBeUndefined();
      expect(
        successorsOf(list, retired).map(([c]) => c),
        retired,
      ).toEqual(successors);
    }
  });
});
