import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/*
 * A publish build repeats the previous one with the same source code: only the content snapshot,
 * read when the pages render, differs. So the worker runs Astro's bundling step (`viteBuild`: the
 * server and client bundles, ~3 s of Rollup here) once, keeps its output, and for every later build
 * copies that output into the new release directory and lets Astro generate the pages from it
 * (~0.5 s). Pages are imported afresh from each new directory, so no content is carried over.
 * build-memo-hooks.mjs routes Astro's call here. The memo lives as long as the worker: the server
 * never changes its code while it runs, and a recycled worker starts again with a full build.
 */

/** What Astro's internal `viteBuild` answers (core/build/static-build.js, Astro 5.18). */
interface ViteBuildResult {
  internals: { middlewareEntryPoint?: URL; [key: string]: unknown };
  ssrOutputChunkNames: string[];
}
interface ViteBuildOptions {
  settings: { config: { outDir: URL } };
}
type ViteBuild = (opts: ViteBuildOptions) => Promise<ViteBuildResult>;

const HOOK = Symbol.for('procurement.viteBuild');
const UNPATCHED = Symbol.for('procurement.viteBuild.unpatched');

interface Memo {
  result: ViteBuildResult;
  /** The middleware chunk, relative to the output directory. */
  middleware?: string;
}

/**
 * Installs the memo. `cacheDir` holds the kept bundles (inside the project: the bundles resolve
 * their packages from node_modules: an outDir outside the project fails). Answers false when Astro's call could not
 * be hooked, in which case every build stays a full one.
 */
export function installBuildMemo(cacheDir: string): boolean {
  const g = globalThis as unknown as Record<symbol, unknown>;
  let memo: Memo | undefined;
  g[HOOK] = async (opts: ViteBuildOptions, viteBuild: ViteBuild): Promise<ViteBuildResult> => {
    const outDir = fileURLToPath(opts.settings.config.outDir);
    if (
      !memo ||
      !(await fs.stat(cacheDir).then(
        () => true,
        () => false,
      ))
    ) {
      const result = await viteBuild(opts);
      // As Vite wrote them, before the pages are generated into them and prerender-only chunks emptied.
      await fs.rm(cacheDir, { recursive: true, force: true });
      await fs.cp(outDir, cacheDir, { recursive: true });
      const entry = result.internals.middlewareEntryPoint;
      memo = { result, middleware: entry && path.relative(outDir, fileURLToPath(entry)) };
      return result;
    }
    // A copy, not links: Astro rewrites some of these files in place after generating the pages.
    await fs.cp(cacheDir, outDir, { recursive: true });
    // The one absolute location in the result: the middleware chunk, now in this build's directory.
    if (memo.middleware) memo.result.internals.middlewareEntryPoint = pathToFileURL(path.join(outDir, memo.middleware));
    return memo.result;
  };
  return !g[UNPATCHED];
}
