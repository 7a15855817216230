import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files that take much longer than the rest (a minute or more on a busy 2-core machine),
 * longest first. They start first, so the workers finish together: left to the default order
 * (larger files first, by size) the flood test, a small file, started last but two and ran alone.
 */
const SLOW_FIRST = [
  'contact-flood.test.ts',
  'startup.test.ts',
  'publish-incremental.test.ts',
  'backup-restore.test.ts',
  'static-build.test.ts',
  'fuzz-json.test.ts',
  'fleet.test.ts',
  'access-control.test.ts',
  'publish.test.ts',
  'markup-valid.test.ts',
  'insights-search.test.ts',
  'auth-password-reset.test.ts',
  'contact-notification.test.ts',
];

const rank = (file: TestSpecification) => {
  const i = SLOW_FIRST.findIndex((name) => file.moduleId.endsWith(`/${name}`));
  return i < 0 ? SLOW_FIRST.length : i;
};

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // A stable sort: each project's files stay together, the rest keep the default order.
    return sorted
      .map((file, i) => ({ file, i }))
      .sort(
        (a, b) =>
          (a.file.project.config.sequence.groupOrder ?? 0) - (b.file.project.config.sequence.groupOrder ?? 0) ||
          rank(a.file) - rank(b.file) ||
          a.i - b.i,
      )
      .map(({ file }) => file);
  }
}
