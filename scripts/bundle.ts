/**
 * The build `npm run build` and `npm start` run: the server bundle (dist/server, with its client
 * files in dist/client and their brotli and gzip copies). The bundle is the whole server, as
 * JavaScript: `npm start` loads it and calls its `main` (src/server/web/main.ts), so production
 * runs no TypeScript transpiler. The build opens no database and renders no page: the running
 * server renders the pages from the database into a release of its own (src/server/publish).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '#server/paths.ts';
import { precompress } from '#server/web/static-site.ts';
import { bundleIsCurrent, sourceStamp, stampFile } from './stamp.mjs';

export { bundleIsCurrent, sourceStamp };

export async function buildServer(): Promise<void> {
  const root = projectRoot();
  const stamp = await sourceStamp(root);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules', 'astro', 'astro.js'), 'build'], {
      cwd: root,
      env: { ...process.env, PRERENDER_PAGES: 'false', ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`astro build exited with ${code}`))));
  });
  // Compressed once here: every release links these copies in with the files (render.ts).
  await precompress(path.join(root, 'dist', 'client'));
  // Taken before the build: a source edited during it makes the next start build again.
  await fs.writeFile(stampFile(root), `${stamp}\n`);
}
