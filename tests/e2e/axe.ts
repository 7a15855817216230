import fs from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** WCAG 2.0 and 2.1, levels A and AA, and axe's best practices. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** The axe-core that AxeBuilder itself uses, so both ways run the same rules. */
const fromBuilder = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
const AXE_SOURCE = fs.readFileSync(fromBuilder.resolve('axe-core/axe.min.js'), 'utf8');

type Found = { id: string; targets: string[] }[];
type RunOptions = { resultTypes: ['violations']; runOnly?: { type: 'tag'; values: string[] } };
type Violations = { violations: { id: string; nodes: { target: string[] }[] }[] };

/**
 * axe.run in the page itself, axe injected once per document. Injecting axe (650 KB) is most of
 * the cost of a run, about a second on a busy machine against a few hundred milliseconds for the
 * rules, and AxeBuilder injects it two or three times per run (it also merges each frame's results
 * in a blank page it opens for the purpose); a back-office test that checks tab after tab of one
 * document injects it once.
 */
async function runInPage(page: Page, include: string | undefined, options: RunOptions): Promise<Found> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ include, options }) => {
      const { axe } = window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<Violations> } };
      const { violations } = await axe.run(include ?? document, options);
      return violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
    },
    { include, options },
  );
}

/**
 * What axe finds on the page (or inside `include`), one line per rule: `[label: ]rule target, …`.
 * `wcag` limits the run to WCAG 2.1 AA and best practices; otherwise every default rule runs.
 * Only violations are gathered in full, which spares axe a selector for every passing node.
 * A page with frames (the reply preview is a sandboxed one, another origin to axe) goes through
 * AxeBuilder, which reaches into every frame.
 */
export async function axeViolations(page: Page, opts: { include?: string; wcag?: boolean; label?: string } = {}): Promise<string[]> {
  const options: RunOptions = { resultTypes: ['violations'], ...(opts.wcag ? { runOnly: { type: 'tag', values: WCAG_AA } } : {}) };
  // Colours are judged once they have settled: a button still fading to its pressed colour
  // (a CSS transition) would fail contrast for what no one reads. Endless animations are not
  // awaited, and a paused one (which never finishes) is given up on after 2 s.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((r) => setTimeout(r, 2000)),
    ]),
  );
  let found: Found;
  if (page.frames().length === 1) {
    found = await runInPage(page, opts.include, options);
  } else {
    let builder = new AxeBuilder({ page }).options(options);
    if (opts.include) builder = builder.include(opts.include);
    const { violations } = await builder.analyze();
    found = violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
  }
  const prefix = opts.label ? `${opts.label}: ` : '';
  return found.map((v) => `${prefix}${v.id} ${v.targets.join(', ')}`);
}
