import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { load } from '#server/publish/build-memo-hooks.mjs';

const TARGET = 'file:///app/node_modules/astro/dist/core/build/index.js';
const UNPATCHED = Symbol.for('procurement.viteBuild.unpatched');
const g = globalThis as unknown as Record<symbol, unknown>;
const next = (source: string) => async () => ({ format: 'module', source });

describe('[PUBLISH][WORKER] the module hook in front of Astro’s bundling step', () => {
  afterEach(() => {
    delete g[UNPATCHED];
  });

  it('routes the one viteBuild call of the installed Astro through the memo', async () => {
    const installed = fs.readFileSync(path.resolve('node_modules/astro/dist/core/build/index.js'), 'utf8');
    const out = await load(TARGET, {}, next(installed));
    expect(out.source).toContain('await (globalThis[Symbol.for("procurement.viteBuild")] ?? viteBuild)(opts, viteBuild);');
    expect(out.source).not.toContain('= await viteBuild(opts);');
    expect(g[UNPATCHED]).toBeUndefined();
  });

  it('leaves another Astro untouched and says so, so every build stays a full one', async () => {
    const other = 'const { internals } = await runViteBuild(options);';
    const out = await load(TARGET, {}, next(other));
    expect(out.source).toBe(other);
    expect(g[UNPATCHED]).toBe(true);
  });

  it('does not touch any other module', async () => {
    const source = 'const x = await viteBuild(opts);';
    const out = await load('file:///app/src/other.js', {}, next(source));
    expect(out.source).toBe(source);
    expect(g[UNPATCHED]).toBeUndefined();
  });
});
