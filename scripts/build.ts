/**
 * `npm run build`: builds the server bundle (dist/server) and a first copy of the pages from the
 * spec's fallback copy. It opens no database: the running server builds the real pages from the
 * database into a release of its own (src/server/publish).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '#server/paths.ts';

export async function buildServer(): Promise<void> {
  const root = projectRoot();
  // Not inside dist/: astro build empties it first.
  const snapshot = path.join(os.tmpdir(), `empty-content-${process.pid}.json`);
  await fs.mkdir(path.dirname(snapshot), { recursive: true });
  await fs.writeFile(snapshot, JSON.stringify(EMPTY_CONTENT));
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules', 'astro', 'astro.js'), 'build'], {
      cwd: root,
      env: { ...process.env, CONTENT_SNAPSHOT: snapshot, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`astro build exited with ${code}`))));
  });
}

const EMPTY_CONTENT = {
  generatedAt: new Date(0).toISOString(),
  header: null,
  headerCta: null,
  blocks: {
    intro: null,
    home_cta: null,
    about: null,
    about_mission: null,
    services_hero: null,
    services_overview: null,
    home_services: null,
  },
  homeFeatures: [],
  aboutFeatures: [],
  services: [],
  insights: [],
  documents: [],
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildServer().catch((err: Error) => {
    console.error(`Error: ${err.message}`);
    process.exit(1);
  });
}
