/**
 * `npm run build:static`: prerenders the public site into STATIC_OUT_DIR (default `dist-static`);
 * `<dir>/client` is the folder a static host serves, with the files the hosts read for its headers
 * and its routes to the Node origin (API_ORIGIN): `_headers`, `_redirects`, `_routes.json`, `vercel.json`, and
 * `<dir>/nginx-static.conf`. The content comes from CONTENT_SNAPSHOT, a file (`npm run
 * content:export`) or the origin's GET /api/deploy/snapshot with DEPLOY_TOKEN, else from the
 * database itself.
 *
 * Astro's build imports the chunks it writes from the directory it writes them to, and those
 * import the project's packages: a directory outside the project could not resolve them. Such a
 * directory gets the site built inside the project first, then its `client` folder copied over.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  cloudflareRoutes,
  headersFile,
  hostHeaders,
  isOriginPath,
  nginxConfig,
  notFoundFolders,
  redirectsFile,
  servedUrl,
  typesOf,
  vercelConfig,
} from '#server/publish/host-files.ts';
import { loadStaticSite } from '#server/publish/release-files.ts';
import { loadDotEnv } from '#server/preflight.ts';
import { projectRoot } from './stamp.mjs';

/** Fetches the origin's published content into `file`; answers the site address it is published under. */
async function fetchSnapshot(url: string, file: string): Promise<string | null> {
  const token = process.env.DEPLOY_TOKEN;
  if (!token) throw new Error('CONTENT_SNAPSHOT is an address: set DEPLOY_TOKEN to the origin’s deploy token');
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(120_000) });
  if (!res.ok) {
    const message = await res
      .json()
      .then((b: { message?: string }) => b.message)
      .catch(() => undefined);
    throw new Error(`${url} answered ${res.status}${message ? `: ${message}` : ''}`);
  }
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return res.headers.get('x-site-url');
}

/** The folder a host serves: without the origin's pages, with the hosts' files. */
async function writeHostFiles(client: string, out: string, origin: string | undefined): Promise<void> {
  for (const page of ['admin.html', 'auth.html', 'auth']) fs.rmSync(path.join(client, page), { recursive: true, force: true });
  const site = await loadStaticSite(client);
  for (const key of site.keys()) if (isOriginPath(servedUrl(key))) site.delete(key);
  const headers = hostHeaders(site);
  fs.writeFileSync(path.join(client, '_headers'), headersFile(headers));
  fs.writeFileSync(path.join(client, '_routes.json'), `${JSON.stringify(cloudflareRoutes(), null, 2)}\n`);
  if (!origin) {
    console.warn('API_ORIGIN is not set: _redirects, vercel.json and nginx-static.conf are not written (they route /api to it).');
    return;
  }
  fs.writeFileSync(path.join(client, '_redirects'), redirectsFile(origin));
  fs.writeFileSync(path.join(client, 'vercel.json'), `${JSON.stringify(vercelConfig(headers, origin), null, 2)}\n`);
  fs.writeFileSync(
    path.join(out, 'nginx-static.conf'),
    nginxConfig(headers, {
      root: path.resolve(client),
      origin,
      listen: process.env.STATIC_LISTEN,
      types: typesOf(site),
      notFoundFolders: notFoundFolders(site),
    }),
  );
  if (headers.rules.length > 100) console.warn(`_headers has ${headers.rules.length} rules; Cloudflare Pages reads the first 100.`);
}

async function main(): Promise<number> {
  loadDotEnv();
  const root = projectRoot();
  const out = path.resolve(root, process.env.STATIC_OUT_DIR || 'dist-static');
  const relative = path.relative(root, out);
  const inside = !relative.startsWith('..') && !path.isAbsolute(relative);
  // Named after the output directory: two builds for two directories (two test runs) do not meet.
  const buildDir = inside ? out : path.join(root, `.static-build-${path.basename(out)}`);
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', PRERENDER_PAGES: 'true', ASTRO_TELEMETRY_DISABLED: '1' };
  let origin = process.env.API_ORIGIN?.replace(/\/+$/, '');
  const snapshot = process.env.CONTENT_SNAPSHOT;
  const fetched = `${out}.snapshot-${process.pid}.json`;
  try {
    if (snapshot && /^https?:\/\//.test(snapshot)) {
      const site = await fetchSnapshot(snapshot, fetched);
      env.CONTENT_SNAPSHOT = fetched;
      if (!env.SITE_URL && site) env.SITE_URL = site;
      origin ??= new URL(snapshot).origin;
    }
    const astro = path.join(root, 'node_modules', 'astro', 'astro.js');
    const build = spawnSync(process.execPath, [astro, 'build', '--outDir', buildDir], { cwd: root, stdio: 'inherit', env });
    if (build.status !== 0) return build.status ?? 1;
    if (!inside) {
      fs.rmSync(path.join(out, 'client'), { recursive: true, force: true });
      fs.mkdirSync(out, { recursive: true });
      fs.cpSync(path.join(buildDir, 'client'), path.join(out, 'client'), { recursive: true });
    }
    await writeHostFiles(path.join(out, 'client'), out, origin);
    console.log(`The static site is in ${path.join(out, 'client')}.`);
    return 0;
  } finally {
    fs.rmSync(fetched, { force: true });
    if (!inside) fs.rmSync(buildDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`Error: ${err.message}`);
    process.exit(1);
  },
);
