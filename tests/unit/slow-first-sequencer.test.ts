import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SLOW_FIRST, slowFirst, type SequencedFile } from '../slow-first-sequencer';

const file = (moduleId: string, groupOrder?: number): SequencedFile => ({
  moduleId,
  project: { config: { sequence: { groupOrder } } },
});
const ids = (files: SequencedFile[]) => files.map((f) => f.moduleId);

describe('the order of the test files', () => {
  it('names only files that exist (a renamed file would silently lose its place)', () => {
    const all = fs.readdirSync(path.resolve('tests'), { recursive: true }).map((f) => path.basename(String(f)));
    for (const name of SLOW_FIRST) expect(all, name).toContain(name);
    expect(new Set(SLOW_FIRST).size).toBe(SLOW_FIRST.length);
  });

  it('starts the slow files first, in their listed order, and keeps the rest in the order given', () => {
    const given = [
      file('/r/tests/integration/a.test.ts', 1),
      file(`/r/tests/integration/${SLOW_FIRST[2]}`, 1),
      file('/r/tests/integration/b.test.ts', 1),
      file(`/r/tests/integration/${SLOW_FIRST[0]}`, 1),
    ];
    expect(ids(slowFirst(given))).toEqual([
      `/r/tests/integration/${SLOW_FIRST[0]}`,
      `/r/tests/integration/${SLOW_FIRST[2]}`,
      '/r/tests/integration/a.test.ts',
      '/r/tests/integration/b.test.ts',
    ]);
  });

  it('keeps each project together, in group order, whatever its files are called', () => {
    const given = [
      file('/r/tests/fault/kill.test.ts', 2),
      file(`/r/tests/integration/${SLOW_FIRST[0]}`, 1),
      file('/r/tests/unit/z.test.ts'),
      file('/r/tests/integration/a.test.ts', 1),
      file('/r/tests/unit/a.test.ts'),
    ];
    expect(ids(slowFirst(given))).toEqual([
      '/r/tests/unit/z.test.ts',
      '/r/tests/unit/a.test.ts',
      `/r/tests/integration/${SLOW_FIRST[0]}`,
      '/r/tests/integration/a.test.ts',
      '/r/tests/fault/kill.test.ts',
    ]);
  });

  it('matches a whole file name, not its end', () => {
    const given = [file('/r/tests/integration/a.test.ts', 1), file(`/r/tests/integration/not-${SLOW_FIRST[0]}`, 1)];
    expect(ids(slowFirst(given))).toEqual(ids(given));
  });
});
