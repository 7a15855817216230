import type { MARKETING_FIGURES } from '#shared/constants.ts';
import type { CompanyFormValues } from '#shared/schemas/company-profile.ts';
import type { CompanyProfile } from '../../api/company-profile';

/* What the Company tab shows and saves, apart from the form itself (company-form.tsx, loaded on Edit). */

export type FigureKey = keyof typeof MARKETING_FIGURES;

/** Each marketing figure, with where the home page shows it. */
export const FIGURES: { key: FigureKey; label: string; where: string }[] = [
  { key: 'activeContracts', label: 'Active contracts', where: 'Home page, dashboard card' },
  { key: 'supplierPerformance', label: 'Supplier performance', where: 'Home page, dashboard card and its bar (a percentage)' },
  { key: 'budgetUtilisation', label: 'Budget utilisation', where: 'Home page, dashboard card and its bar (a percentage)' },
  { key: 'onTimeDelivery', label: 'On-time delivery', where: 'Home page, results section' },
  { key: 'budgetManaged', label: 'Budget managed', where: 'Home page, results section' },
  { key: 'costSavings', label: 'Average cost savings', where: 'Home page, results section' },
  { key: 'contractsCompleted', label: 'Contracts completed', where: 'Home page, results section' },
];

/** Deep equality ignoring key order (stored JSON objects come back with their keys reordered). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] != null);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] != null);
  return ka.length === kb.length && ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Only what changed: whole fields, and for the figures only the changed figures (the server merges them). */
export function changedFields(record: CompanyProfile, values: CompanyFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values) as [keyof CompanyFormValues, unknown][]) {
    if (key === 'figures') {
      const figures = Object.fromEntries(
        FIGURES.filter(({ key: k }) => (values.figures[k] ?? null) !== (record.figures[k] ?? null)).map(({ key: k }) => [
          k,
          values.figures[k] ?? null,
        ]),
      );
      if (Object.keys(figures).length > 0) out.figures = figures;
    } else if (!same(value ?? null, record[key] ?? null)) out[key] = value;
  }
  return out;
}
