/**
 * Module hook for the warm build worker (build-worker.ts registers it). It lets the worker reuse
 * the bundling half of an Astro build: Astro's `build()` calls its internal `viteBuild(opts)` (the
 * server and client bundles) and then generates the pages from them. The hook rewrites that one
 * call in astro/dist/core/build/index.js to go through `globalThis[Symbol.for(KEY)]` when the
 * worker has set it (build-memo.ts). When the call is not found (another Astro version) nothing is
 * changed and `globalThis[Symbol.for(UNPATCHED)]` is set, so the worker builds fully every time.
 */
const TARGET = '/node_modules/astro/dist/core/build/index.js';
const CALL = 'await viteBuild(opts);';
const MEMO = 'await (globalThis[Symbol.for("procurement.viteBuild")] ?? viteBuild)(opts, viteBuild);';

export async function load(url, context, next) {
  const result = await next(url, context);
  if (!url.endsWith(TARGET)) return result;
  const source = String(result.source);
  if (source.split(CALL).length !== 2) {
    globalThis[Symbol.for('procurement.viteBuild.unpatched')] = true;
    return result;
  }
  return { ...result, source: source.replace(CALL, MEMO) };
}
