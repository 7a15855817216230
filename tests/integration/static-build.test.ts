/**
 * The two ways to make the public site give the same site: the release the server renders on
 * publish (src/server/publish/render.ts) and `npm run build:static` (Astro prerendering, for hosts
 * behind the rebuild webhook), from the same content: the same files, the same text on each.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteContent } from '#server/content/site-content.ts';
import { buildRelease, releaseClientDir } from '#server/publish/releases.ts';
import { expectedFiles } from '#server/content/routes.ts';
import { seededContent } from './helpers/db';

const RELEASES = `.releases-test-${process.pid}`;
/** Outside the project, as a host's build may put it (Astro's own output directory cannot be: scripts/build-static.mjs). */
const STATIC_OUT = path.join(os.tmpdir(), `static-test-${process.pid}`);
const SNAPSHOT = `${STATIC_OUT}.content.json`;

let content: SiteContent;
let rendered: string;
const staticClient = path.join(STATIC_OUT, 'client');

function buildStatic(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build:static'], {
      env: { ...process.env, STATIC_OUT_DIR: STATIC_OUT, CONTENT_SNAPSHOT: SNAPSHOT },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`build:static exited with ${code}: ${output.slice(-2000)}`)),
    );
  });
}

async function pageFiles(dir: string): Promise<string[]> {
  const all = (await fs.readdir(dir, { recursive: true })).map(String);
  return all
    .filter((f) => /\.(html|xml|txt|pdf)$/.test(f))
    .map((f) => `/${f.split(path.sep).join('/')}`)
    .sort();
}

/** What a reader gets from a file: its text without markup, scripts or styles, spaces collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

beforeAll(async () => {
  process.env.RELEASES_DIR = RELEASES;
  content = await seededContent();
  await fs.writeFile(SNAPSHOT, JSON.stringify(content));
  rendered = releaseClientDir((await buildRelease(content)).id);
  await buildStatic();
  // Built inside the project, then copied out; nothing of the build stays behind.
  expect(await fs.stat(`.static-build-${path.basename(STATIC_OUT)}`).catch(() => 'gone')).toBe('gone');
}, 600_000);

afterAll(async () => {
  await Promise.all([RELEASES, STATIC_OUT, SNAPSHOT].map((p) => fs.rm(p, { recursive: true, force: true })));
});

describe('[PUBLISH][STATIC] render on publish and `npm run build:static` agree', () => {
  it('have the same files: every route of the site, one page per published insight', async () => {
    const staticFiles = await pageFiles(staticClient);
    expect(await pageFiles(rendered)).toEqual(staticFiles);
    expect(staticFiles).toEqual([...expectedFiles(content)].sort());
    expect(staticFiles.filter((f) => f.startsWith('/insights/') && f !== '/insights/404.html').length).toBeGreaterThan(0);
  });

  it('have the same text on every page, title and JSON-LD included', async () => {
    for (const file of await pageFiles(staticClient)) {
      if (file.endsWith('.pdf')) {
        // The capability statement: the same bytes (its dates come from the content, not the clock).
        const [a, b] = await Promise.all([fs.readFile(path.join(rendered, file)), fs.readFile(path.join(staticClient, file))]);
        expect(a.equals(b), file).toBe(true);
        continue;
      }
      const [a, b] = await Promise.all([
        fs.readFile(path.join(rendered, file), 'utf8'),
        fs.readFile(path.join(staticClient, file), 'utf8'),
      ]);
      expect(textOf(a), file).toBe(textOf(b));
      expect(a.match(/<title>[^<]*<\/title>/)?.[0], file).toBe(b.match(/<title>[^<]*<\/title>/)?.[0]);
      const jsonLd = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]);
      expect(jsonLd(a), file).toEqual(jsonLd(b));
    }
  });

  it('use the same client assets', async () => {
    const assets = async (dir: string) =>
      (await fs.readdir(path.join(dir, '_astro'))).filter((f) => !f.endsWith('.br') && !f.endsWith('.gz')).sort();
    expect(await assets(rendered)).toEqual(await assets(staticClient));
  });
});
