import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** WCAG 2.0 and 2.1, levels A and AA, and axe's best practices. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * What axe finds on the page (or inside `include`), one line per rule: `[label: ]rule target, …`.
 * `wcag` limits the run to WCAG 2.1 AA and best practices; otherwise every default rule runs.
 * Only violations are gathered in full, which spares axe a selector for every passing node.
 */
export async function axeViolations(page: Page, opts: { include?: string; wcag?: boolean; label?: string } = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  if (opts.wcag) builder = builder.withTags(WCAG_AA);
  if (opts.include) builder = builder.include(opts.include);
  const { violations } = await builder.analyze();
  const prefix = opts.label ? `${opts.label}: ` : '';
  return violations.map((v) => `${prefix}${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
