import fs from 'node:fs/promises';
import path from 'node:path';
import type { StaticMap } from '../web/static-site';

/**
 * The per-page CSP for nginx (deploy/nginx/procurement-site.conf), written beside a release's
 * files when it goes live: one line with the release's real directory (nginx serves a release it
 * finds in a map, and passes the requests of any other to the app), then one line per page with
 * the CSP the app sends for it. The values are the ones the app computed when it loaded the
 * release, so nginx and the app send the same header.
 */
const NGINX_CSP_MAP = 'nginx-csp.map';
/** Beside it, each page's robots directives (`noindex` until the site is launched), for X-Robots-Tag. */
const NGINX_ROBOTS_MAP = 'nginx-robots.map';

/** What can stand in an nginx quoted string as it is: no quote, backslash, `$` or control character. */
const PLAIN = /^[\x20-\x7e]*$/;
const plain = (text: string) => PLAIN.test(text) && !/["\\$]/.test(text);

/** The map's text, or undefined when a path or a CSP could not be written as it is (nginx then leaves the release to the app). */
export function nginxCspMap(realClientDir: string, site: StaticMap): string | undefined {
  const lines = [`# The CSP of each page of this release, for nginx (written by the server).`, `"${realClientDir}" 1;`];
  for (const [key, file] of site) {
    if (!key.endsWith('.html') || !file.csp) continue;
    const entry = `${realClientDir}${key}`;
    if (!plain(entry) || !plain(file.csp)) return undefined;
    lines.push(`"${entry}" "${file.csp}";`);
  }
  return plain(realClientDir) ? `${lines.join('\n')}\n` : undefined;
}

/** The robots map's text: each page that asks not to be indexed, with its directives (undefined as above). */
export function nginxRobotsMap(realClientDir: string, site: StaticMap): string | undefined {
  const lines = [`# The robots directives of each page of this release, for nginx (written by the server).`];
  for (const [key, file] of site) {
    if (!key.endsWith('.html') || !file.robots) continue;
    const entry = `${realClientDir}${key}`;
    if (!plain(entry) || !plain(file.robots)) return undefined;
    lines.push(`"${entry}" "${file.robots}";`);
  }
  return `${lines.join('\n')}\n`;
}

/** Whole or not at all: nginx may be reloading while it is written. */
async function writeWhole(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, text);
  await fs.rename(tmp, file);
}

/**
 * Writes (or, when they cannot be written, removes) the maps of the release in `clientDir`, whose
 * files are `site`: the robots map first, as the CSP map is what makes nginx serve the release.
 */
export async function writeNginxCspMap(clientDir: string, site: StaticMap): Promise<void> {
  const dir = path.dirname(clientDir);
  const real = await fs.realpath(clientDir);
  const csp = nginxCspMap(real, site);
  const robots = nginxRobotsMap(real, site);
  if (csp === undefined || robots === undefined) {
    await fs.rm(path.join(dir, NGINX_CSP_MAP), { force: true });
    return fs.rm(path.join(dir, NGINX_ROBOTS_MAP), { force: true });
  }
  await writeWhole(path.join(dir, NGINX_ROBOTS_MAP), robots);
  await writeWhole(path.join(dir, NGINX_CSP_MAP), csp);
}
