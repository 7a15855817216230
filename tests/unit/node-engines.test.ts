/**
 * `npm install` warns (EBADENGINE) about every package whose `engines.node` leaves out the Node
 * the project runs on. The oldest Node that package.json allows must satisfy every package in
 * the lock file, so a newcomer's install is quiet.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

type Lock = { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as Lock;
const declared = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;

type Version = [number, number, number];
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `v` satisfies a node-semver range (the comparators engines fields use: >= > <= < = ^ ~, x, hyphen). */
function satisfies(v: Version, range: string): boolean {
  return range.split('||').some((alt) => {
    const hyphen = /^\s*([\d.x*]+)\s+-\s+([\d.x*]+)\s*$/.exec(alt);
    const parts = hyphen
      ? [`>=${hyphen[1]}`, `<=${hyphen[2]}`]
      : alt
          .replace(/([<>=^~]+)\s+/g, '$1')
          .trim()
          .split(/\s+/);
    return parts.every((part) => {
      const m = /^(>=|<=|>|<|=|\^|~)?v?([\dx*]+)(?:\.([\dx*]+))?(?:\.([\dx*]+))?/.exec(part);
      if (!m || m[2] === '*' || m[2] === 'x') return true;
      const nums = [m[2], m[3], m[4]].map((n) => (n === undefined || n === 'x' || n === '*' ? undefined : Number(n)));
      const given = nums.filter((n) => n !== undefined).length;
      const low = nums.map((n) => n ?? 0) as Version;
      const c = compare(v, low);
      switch (m[1]) {
        case '>=':
          return c >= 0;
        case '>':
          return c > 0;
        case '<=':
          return given === 3 ? c <= 0 : v[0] < low[0] || (v[0] === low[0] && (given < 2 || v[1] <= low[1]));
        case '<':
          return c < 0;
        case '^':
          return c >= 0 && (low[0] > 0 ? v[0] === low[0] : v[1] === low[1]);
        case '~':
          return c >= 0 && v[0] === low[0] && (given < 2 || v[1] === low[1]);
        default:
          return v[0] === low[0] && (given < 2 || v[1] === low[1]) && (given < 3 || v[2] === low[2]);
      }
    });
  });
}

/** The oldest Node the project declares: the lower bound of its first range. */
const oldest = /(\d+)\.(\d+)(?:\.(\d+))?/
  .exec(declared)!
  .slice(1)
  .map((n) => Number(n ?? 0)) as Version;

describe('[DEPS] every installed package supports the Node the project declares', () => {
  it('the range check reads engines fields as npm does', () => {
    expect(satisfies([20, 19, 0], '>=22.12.0')).toBe(false);
    expect(satisfies([20, 19, 0], '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies([20, 19, 0], '^18.18.0 || ^20.9.0 || >=21.1.0')).toBe(true);
    expect(satisfies([20, 19, 0], '>=20.19 <21 || >=22')).toBe(true);
    expect(satisfies([20, 19, 0], '^22')).toBe(false);
    expect(satisfies([20, 19, 0], '>= 14')).toBe(true);
    expect(satisfies([20, 19, 0], '18 || 20 || >=22')).toBe(true);
  });

  it(`no engines warning on Node ${oldest.join('.')}`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !satisfies(oldest, (p.engines as { node: string }).node))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
