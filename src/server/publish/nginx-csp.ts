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

/** Writes (or, when it cannot be written, removes) the map of the release in `clientDir`, whose files are `site`. */
export async function writeNginxCspMap(clientDir: string, site: StaticMap): Promise<void> {
  const file = path.join(path.dirname(clientDir), NGINX_CSP_MAP);
  const text = nginxCspMap(await fs.realpath(clientDir), site);
  if (text === undefined) return fs.rm(file, { force: true });
  // Whole or not at all: nginx may be reloading while it is written.
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, text);
  await fs.rename(tmp, file);
}
