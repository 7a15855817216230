import type { InsightCategory } from '#shared/constants.ts';

/** 'industry_spotlights' → 'Industry Spotlights' (SPEC 2.11). */
export function categoryLabel(category: InsightCategory | string): string {
  return category
    .split('_')
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');
}
