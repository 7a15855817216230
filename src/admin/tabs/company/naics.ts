import { SUCCESSORS_2022 } from './naics-successors';

/*
 * The official 2022 NAICS national industries (the 1,012 six-digit codes and their titles, as the
 * U.S. Census Bureau publishes them), searched by code or by words. The list is a data file of its
 * own, loaded when the Company form first needs it: it is larger than the whole tab.
 */

/** One national industry: its 6-digit code and official title. */
export type NaicsEntry = readonly [code: string, title: string];

/** The 2022 sectors (the first two digits), so a search for 'retail' or 'manufacturing' finds their industries. */
const SECTORS: Record<string, string> = {
  '11': 'Agriculture, Forestry, Fishing and Hunting',
  '21': 'Mining, Quarrying, and Oil and Gas Extraction',
  '22': 'Utilities',
  '23': 'Construction',
  '31': 'Manufacturing',
  '32': 'Manufacturing',
  '33': 'Manufacturing',
  '42': 'Wholesale Trade',
  '44': 'Retail Trade',
  '45': 'Retail Trade',
  '48': 'Transportation and Warehousing',
  '49': 'Transportation and Warehousing',
  '51': 'Information',
  '52': 'Finance and Insurance',
  '53': 'Real Estate and Rental and Leasing',
  '54': 'Professional, Scientific, and Technical Services',
  '55': 'Management of Companies and Enterprises',
  '56': 'Administrative and Support and Waste Management and Remediation Services',
  '61': 'Educational Services',
  '62': 'Health Care and Social Assistance',
  '71': 'Arts, Entertainment, and Recreation',
  '72': 'Accommodation and Food Services',
  '81': 'Other Services (except Public Administration)',
  '92': 'Public Administration',
};

/** The sector an industry belongs to. */
export function sectorOf(code: string): string {
  return SECTORS[code.slice(0, 2)] ?? '';
}

/**
 * The 2022 successors of a code the 2022 revision retired (443142 → 449210 Electronics and Appliance
 * Retailers), with their titles; empty for any other code.
 */
export function successorsOf(list: readonly NaicsEntry[], code: string): NaicsEntry[] {
  const successors = Object.hasOwn(SUCCESSORS_2022, code) ? SUCCESSORS_2022[code]! : [];
  return list.filter(([c]) => successors.includes(c));
}

let loading: Promise<readonly NaicsEntry[]> | undefined;

/** The list, imported once (a failed import is tried again next time). */
export function loadNaics(): Promise<readonly NaicsEntry[]> {
  if (!loading) {
    loading = import('./naics-2022.json').then((m) => m.default as unknown as NaicsEntry[]);
    loading.catch(() => (loading = undefined));
  }
  return loading;
}

/** The official title of a 2022 code, or undefined for a code the 2022 list does not have. */
export function naicsTitle(list: readonly NaicsEntry[], code: string): string | undefined {
  return list.find(([c]) => c === code)?.[1];
}

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/**
 * The industries matching a query, best first: digits match the start of the code (`3341` finds
 * every computer manufacturing code); words must all start a word of the title or of its sector
 * (`comp whole` finds the computer merchant wholesalers). Titles that match in their own words come
 * before those that match only by sector.
 */
export function searchNaics(list: readonly NaicsEntry[], query: string): NaicsEntry[] {
  const terms = words(query);
  if (terms.length === 0) return [];
  const digits = terms.filter((t) => /^\d+$/.test(t));
  const text = terms.filter((t) => !/^\d+$/.test(t));
  const scored: { entry: NaicsEntry; score: number }[] = [];
  for (const entry of list) {
    const [code, title] = entry;
    if (!digits.every((d) => code.startsWith(d))) continue;
    const own = words(title);
    const sector = words(sectorOf(code));
    let score = 0;
    let matches = true;
    for (const term of text) {
      if (own.some((w) => w.startsWith(term))) score += own[0]?.startsWith(term) ? 3 : 2;
      else if (sector.some((w) => w.startsWith(term))) score += 1;
      else {
        matches = false;
        break;
      }
    }
    if (matches) scored.push({ entry, score });
  }
  return scored.sort((a, b) => b.score - a.score || a.entry[0].localeCompare(b.entry[0])).map((s) => s.entry);
}
