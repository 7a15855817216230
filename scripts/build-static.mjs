/**
 * `npm run build:static`: prerenders the public site (from the database, or from the JSON file
 * named by CONTENT_SNAPSHOT) into STATIC_OUT_DIR (default `dist-static`); `<dir>/client` is the
 * site a static host serves. Astro's build imports the chunks it writes from the directory it
 * writes them to, and those import the project's packages: a directory outside the project could
 * not resolve them. Such a directory gets the site built inside the project first, then its
 * `client` folder copied over (replacing the one there).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './stamp.mjs';

const root = projectRoot();
const out = path.resolve(root, process.env.STATIC_OUT_DIR || 'dist-static');
const inside = !path.relative(root, out).startsWith('..') && !path.isAbsolute(path.relative(root, out));
// Named after the output directory: two builds for two directories (two test runs) do not meet.
const buildDir = inside ? out : path.join(root, `.static-build-${path.basename(out)}`);

const astro = path.join(root, 'node_modules', 'astro', 'astro.js');
const build = spawnSync(process.execPath, [astro, 'build', '--outDir', buildDir], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production', PRERENDER_PAGES: 'true', ASTRO_TELEMETRY_DISABLED: '1' },
});
if (!inside) {
  if (build.status === 0) {
    fs.rmSync(path.join(out, 'client'), { recursive: true, force: true });
    fs.mkdirSync(out, { recursive: true });
    fs.cpSync(path.join(buildDir, 'client'), path.join(out, 'client'), { recursive: true });
    console.log(`The static site is in ${path.join(out, 'client')}.`);
  }
  fs.rmSync(buildDir, { recursive: true, force: true });
}
process.exit(build.status ?? 1);
