import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files that take much longer than the rest (a minute or more on a busy 2-core machine),
 * longest first. They start first, so the workers finish together: left to the default order
 * (larger files first, by size) the flood test, a small file, started last but two and ran alone.
 */
export const SLOW_FIRST = [
  'contact-flood.test.ts',
  'startup.test.ts',
  'publish-incremental.test.ts',
  'backup-restore.test.ts',
  'static-host.test.ts',
  'fuzz-json.test.ts',
  'fleet.test.ts',
  'access-control.test.ts',
  'publish.test.ts',
  'markup-valid.test.ts',
  'insights-search.test.ts',
  'auth-password-reset.test.ts',
  'contact-notification.test.ts',
];

/** What the order reads of a test file (a `TestSpecification` has these). */
export interface SequencedFile {
  moduleId: string;
  project: { config: { sequence: { groupOrder?: number } } };
}

const rank = (file: SequencedFile) => {
  const i = SLOW_FIRST.findIndex((name) => file.moduleId.endsWith(`/${name}`));
  return i < 0 ? SLOW_FIRST.length : i;
};

/**
 * `files` (in the default order) with each project's files together, in the projects' group
 * order, and within a project the slow files first, in the order of SLOW_FIRST; the rest keep
 * their order (a stable sort).
 */
export function slowFirst<T extends SequencedFile>(files: readonly T[]): T[] {
  return files
    .map((file, i) => ({ file, i }))
    .sort(
      (a, b) =>
        (a.file.project.config.sequence.groupOrder ?? 0) - (b.file.project.config.sequence.groupOrder ?? 0) ||
        rank(a.file) - rank(b.file) ||
        a.i - b.i,
    )
    .map(({ file }) => file);
}

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return slowFirst(await super.sort(files));
  }
}
