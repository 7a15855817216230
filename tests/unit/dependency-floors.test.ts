/**
 * The registry these machines use answers 405 to `npm audit`, so the security fixes the product
 * relies on are held here instead: the installed versions (package-lock.json) of the packages
 * that had advisories must stay at or above the release with the fix.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version?: string }> };

/** `gone`: no longer a dependency (the server bundle is its own adapter, decision 019); if it comes back, the floor holds. */
const FLOORS: [pkg: string, floor: string, why: string, gone?: 'gone'][] = [
  ['astro', '5.15.8', 'first release with the fixes for its published advisories'],
  ['@astrojs/node', '9.5.4', 'image endpoint SSRF, CVE-2026-27829', 'gone'],
  ['better-auth', '1.4.17', 'first release with the fixes for its published advisories'],
  ['nodemailer', '9.1.1', 'header injection and address parser fixes'],
  ['send', '1.1.0', 'template injection in its redirect page, CVE-2024-43799'],
];

const parse = (v: string) => v.split(/[.-]/).slice(0, 3).map(Number);
const atLeast = (v: string, floor: string) => {
  const [a, b] = [parse(v), parse(floor)];
  for (let i = 0; i < 3; i++) if (a[i]! !== b[i]!) return a[i]! > b[i]!;
  return true;
};

describe('[SECURITY][DEPS] installed versions carry the security fixes', () => {
  it.each(FLOORS)('%s >= %s (%s)', (pkg, floor, _why, gone) => {
    const installed = Object.entries(lock.packages)
      .filter(([path]) => path === `node_modules/${pkg}` || path.endsWith(`/node_modules/${pkg}`))
      .map(([, p]) => p.version!);
    if (gone) expect(lock.packages['']).not.toHaveProperty(['dependencies', pkg]);
    else expect(installed.length).toBeGreaterThan(0);
    for (const v of installed) expect(atLeast(v, floor), `${pkg}@${v}`).toBe(true);
  });
});
