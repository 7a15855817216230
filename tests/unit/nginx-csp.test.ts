import { describe, expect, it } from 'vitest';
import { nginxCspMap, nginxRobotsMap } from '#server/publish/nginx-csp.ts';
import { htmlCsp } from '#server/security-headers.ts';
import type { StaticFile, StaticMap } from '#server/web/static-site.ts';

const file = (csp?: string) => ({ csp }) as StaticFile;

describe('[SECURITY] the per-page CSP map for nginx', () => {
  it('names the release, then each page file (not its clean URL) with its CSP', () => {
    const csp = htmlCsp(["'sha256-abc+/='"]);
    const site: StaticMap = new Map([
      ['/about.html', file(csp)],
      ['/about', file(csp)],
      ['/_astro/app.js', file()],
    ]);
    expect(nginxCspMap('/srv/releases/1/client', site)).toBe(
      [
        '# The CSP of each page of this release, for nginx (written by the server).',
        '"/srv/releases/1/client" 1;',
        `"/srv/releases/1/client/about.html" "${csp}";`,
        '',
      ].join('\n'),
    );
  });

  it('writes nothing it would have to escape: such a release is left to the app', () => {
    const csp = htmlCsp([]);
    expect(nginxCspMap('/srv/releases/1/client', new Map([['/a"b.html', file(csp)]]))).toBeUndefined();
    expect(nginxCspMap('/srv/releases/1/client', new Map([['/a$b.html', file(csp)]]))).toBeUndefined();
    expect(nginxCspMap('/srv/rel eases/"1/client', new Map([['/a.html', file(csp)]]))).toBeUndefined();
    expect(nginxCspMap('/srv/releases/1/client', new Map([['/é.html', file(csp)]]))).toBeUndefined();
  });
});

describe('[SEO] the per-page robots map for nginx', () => {
  const page = (robots?: string) => ({ robots }) as StaticFile;
  it('names each page file that asks not to be indexed, with its directives; none when the site is launched', () => {
    const site: StaticMap = new Map([
      ['/about.html', page('noindex')],
      ['/about', page('noindex')],
      ['/index.html', page()],
      ['/_astro/app.js', page()],
    ]);
    expect(nginxRobotsMap('/srv/releases/1/client', site)).toBe(
      [
        '# The robots directives of each page of this release, for nginx (written by the server).',
        '"/srv/releases/1/client/about.html" "noindex";',
        '',
      ].join('\n'),
    );
    expect(nginxRobotsMap('/srv/releases/1/client', new Map([['/index.html', page()]]))).toBe(
      '# The robots directives of each page of this release, for nginx (written by the server).\n',
    );
    expect(nginxRobotsMap('/srv/releases/1/client', new Map([['/a"b.html', page('noindex')]]))).toBeUndefined();
  });
});
