import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleIsCurrent, sourceStamp } from '../../scripts/stamp.mjs';

describe('[START] the server bundle is rebuilt when its sources change', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stamp-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write('src/pages/index.astro', '<h1>Home</h1>');
  write('src/server/x.ts', 'export const x = 1;');
  write('package-lock.json', '{"lockfileVersion":3}');
  write('astro.config.mjs', 'export default {};');
  write('tests/a.test.ts', 'test');
  const stamp = async () => write('dist/server/build-stamp.txt', `${await sourceStamp(root)}\n`);

  it('is current right after a build, also when only modification times change', async () => {
    expect(await bundleIsCurrent(root)).toBe(false);
    await stamp();
    expect(await bundleIsCurrent(root)).toBe(true);
    fs.utimesSync(path.join(root, 'src/server/x.ts'), new Date(), new Date(Date.now() + 60_000));
    expect(await bundleIsCurrent(root)).toBe(true);
  });

  it.each([
    ['a source edited', () => write('src/server/x.ts', 'export const x = 2;')],
    ['a source added', () => write('src/server/y.ts', '')],
    ['a source renamed', () => fs.renameSync(path.join(root, 'src/server/x.ts'), path.join(root, 'src/server/z.ts'))],
    ['the lock file changed (npm install after a pull)', () => write('package-lock.json', '{"lockfileVersion":3,"x":1}')],
    ['the Astro config changed', () => write('astro.config.mjs', 'export default { site: "x" };')],
  ])('is stale once %s', async (_what, change) => {
    await stamp();
    change();
    expect(await bundleIsCurrent(root)).toBe(false);
  });

  it('ignores files the bundle is not built from (tests)', async () => {
    await stamp();
    write('tests/a.test.ts', 'changed');
    expect(await bundleIsCurrent(root)).toBe(true);
  });
});
