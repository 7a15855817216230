import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { prefixedLines, summary } from '../../scripts/test-suites';

describe('[OPS] npm test runs the vitest suites beside the end-to-end suite', () => {
  it('npm test ends with the two lanes, after the prerequisites, the checks and the build', () => {
    const script = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: { test: string } }).scripts.test;
    expect(script.split(' && ')).toEqual([
      'tsx scripts/test-prerequisites.ts',
      'tsx scripts/checks.ts',
      'tsx scripts/build.ts --if-stale',
      'tsx scripts/test-suites.ts',
    ]);
  });

  it('the end-to-end lane prints whole lines, each prefixed, however its output is cut', () => {
    const out: string[] = [];
    const write = prefixedLines('e2e │ ', (text) => out.push(text));
    write('  ✓ 1 first te');
    expect(out).toEqual([]);
    write('st (1.0s)\n  ✓ 2 second (2.0s)\n\n  3 pa');
    write('ssed\n');
    expect(out.join('')).toBe('e2e │   ✓ 1 first test (1.0s)\ne2e │   ✓ 2 second (2.0s)\ne2e │ \ne2e │   3 passed\n');
  });

  it('the last line gives each suite its seconds and result', () => {
    expect(
      summary(
        [
          { suite: 'unit', ok: true, seconds: 58 },
          { suite: 'integration', ok: false, seconds: 378 },
          { suite: 'e2e', ok: true, seconds: 552 },
        ],
        560,
      ),
    ).toBe('Suites: unit 58 s passed, integration 378 s FAILED, e2e 552 s passed; 560 s in all (the two lanes side by side).');
  });
});
