import fs from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';
import { projectRoot } from '../paths';
import { SHELL_PAGES } from './routes';

/*
 * What a publish build leaves out. A content change alters the public pages only: the API routes,
 * the preview, the middleware and the two client-only shells (/admin, /auth) are the same code as
 * in `npm run build`. The warm worker builds with `contentBuildPlugin`, which loads those modules
 * as empty stubs, so neither Vite nor Rollup bundles better-auth, the database drivers or the back
 * office on every publish; `copyShell` then takes the shells and their hashed assets from the
 * server's own build (dist/client), which is the same source code.
 */

/** Page modules (relative to src/pages) left out of a publish build. */
function isShellModule(rel: string): boolean {
  return rel.startsWith('api/') || rel.startsWith('preview/') || rel === 'admin/index.astro' || rel === 'auth.astro';
}

/** A shell page renders empty here; copyShell puts the real one in its place. */
const ASTRO_STUB = '';
const ENDPOINT_STUB = 'export const prerender = false;\nexport const ALL = () => new Response(null, { status: 404 });\n';
/** src/middleware.ts does exactly this for a prerendered page (it reads no request there). */
const MIDDLEWARE_STUB = 'export const onRequest = (ctx, next) => { ctx.locals.user = null; ctx.locals.session = null; return next(); };\n';

export function contentBuildPlugin(root = projectRoot()): Plugin {
  const pagesDir = path.join(root, 'src', 'pages') + path.sep;
  const middleware = path.join(root, 'src', 'middleware.ts');
  return {
    name: 'procurement:content-build',
    enforce: 'pre',
    load(id) {
      if (id.includes('?') || id.startsWith('\0')) return null;
      if (id === middleware) return MIDDLEWARE_STUB;
      if (!id.startsWith(pagesDir)) return null;
      const rel = id.slice(pagesDir.length).split(path.sep).join('/');
      if (!isShellModule(rel)) return null;
      return rel.endsWith('.astro') ? ASTRO_STUB : ENDPOINT_STUB;
    },
  };
}

/**
 * Completes a release built without the shells: puts the shell pages of dist/client in place of
 * the empty ones and links in every hashed asset of dist/client that the release lacks (assets are
 * named by their content hash, so an extra one is harmless and a present one is the same file).
 */
export async function copyShell(releaseClient: string, source = path.join(projectRoot(), 'dist', 'client')): Promise<void> {
  const present = new Set(await fs.readdir(path.join(releaseClient, '_astro')).catch(() => [] as string[]));
  const assets = (await fs.readdir(path.join(source, '_astro')).catch(() => [] as string[])).filter((f) => !present.has(f));
  await fs.mkdir(path.join(releaseClient, '_astro'), { recursive: true });
  const files = [...SHELL_PAGES.map((p) => p.slice(1)), ...assets.map((f) => `_astro/${f}`)];
  await Promise.all(
    files.map(async (rel) => {
      const from = path.join(source, rel);
      const to = path.join(releaseClient, rel);
      await fs.rm(to, { force: true });
      // A hard link when both sit on one file system (they do: both are inside the project).
      await fs.link(from, to).catch(() => fs.copyFile(from, to));
    }),
  );
}
