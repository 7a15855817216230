import path from 'node:path';
import { baseSecurityHeaders } from '../security-headers';
import type { StaticMap } from '../web/static-site';

/*
 * The files a static host reads beside the pages of `npm run build:static`: the headers the app
 * sends with each file (web/static-site.ts: the security headers, each page's CSP and robots
 * directives, the cache rules), worked out from the same release description, and the routes that
 * go to the Node origin. `_headers` and `_redirects` (Netlify, Cloudflare Pages), `vercel.json`
 * (Vercel), and an nginx server for a plain folder or object store behind a CDN.
 */

/** What the Node origin answers: the API, the back office, sign-in, and the uploaded files. */
const ORIGIN_PREFIXES = ['/api', '/admin', '/auth', '/uploads'] as const;

/** Whether a URL path belongs to the origin (`/admin`, `/admin/…`, not `/administration`). */
export const isOriginPath = (urlPath: string): boolean =>
  ORIGIN_PREFIXES.some((prefix) => urlPath === prefix || urlPath.startsWith(`${prefix}/`) || urlPath === `${prefix}.html`);

/** Not-found pages are answers for paths that do not exist (status 404), never pages of their own. */
const isNotFoundPage = (urlPath: string) => /(^|\/)404$/.test(urlPath);

type HeaderSet = Record<string, string>;

/** A path (exact, or a folder's files `/dir/*`) and the headers every file it matches gets. */
interface HostRule {
  path: string;
  headers: HeaderSet;
}

export interface HostHeaders {
  /** Sent with every file: the security headers of an https site. */
  common: HeaderSet;
  /** At most one rule matches a file, so hosts that join values (Cloudflare) and those that replace them (Netlify) agree. */
  rules: HostRule[];
  /** The not-found pages (`/404.html`), for a server that answers with them itself (nginx). */
  notFound: HostRule[];
}

/** `x-content-type-options` → `X-Content-Type-Options`, as the hosts' files write names. */
const displayName = (name: string) =>
  name
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('-');

/** The URL a host serves a file at: a page at its clean URL (`/about`, `/` for the home page). */
export function servedUrl(fileKey: string): string {
  if (!fileKey.endsWith('.html')) return fileKey;
  const clean = fileKey.replace(/(\/index)?\.html$/, '');
  return clean === '' ? '/' : clean;
}

/** The headers of one file beyond the common ones. */
function fileHeaders(file: { cacheControl: string; csp?: string; robots?: string }): HeaderSet {
  const headers: HeaderSet = { 'Cache-Control': file.cacheControl };
  if (file.csp) headers['Content-Security-Policy'] = file.csp;
  if (file.robots) headers['X-Robots-Tag'] = file.robots;
  return headers;
}

/** `/insights/a` → `/insights/`; undefined for a file at the top. */
const topFolder = (url: string) => (url.indexOf('/', 1) > 0 ? url.slice(0, url.indexOf('/', 1) + 1) : undefined);

const keyOf = (headers: HeaderSet) => JSON.stringify(Object.entries(headers).sort());

/**
 * The rules for the files of `site` (a map `loadStaticSite` made of the built folder): a folder
 * whose files all get the same headers is one rule (`/_astro/*`, `/insights/*`), any other file a
 * rule of its own. The origin's paths and the not-found pages get none.
 */
export function hostHeaders(site: StaticMap): HostHeaders {
  const files = new Map<string, HeaderSet>();
  const notFound: HostRule[] = [];
  for (const [key, file] of site) {
    if (!key.includes('.')) continue; // a clean URL: the same file under another key
    const url = servedUrl(key);
    if (isNotFoundPage(url)) notFound.push({ path: key, headers: fileHeaders(file) });
    else if (!isOriginPath(url)) files.set(url, fileHeaders(file));
  }
  // Each top folder (`/_astro/`, `/insights/`) whose files share one set of headers: one rule.
  const byFolder = new Map<string, Set<string>>();
  for (const [url, headers] of files) {
    const top = topFolder(url);
    if (!top) continue;
    if (!byFolder.has(top)) byFolder.set(top, new Set());
    byFolder.get(top)!.add(keyOf(headers));
  }
  const rules: HostRule[] = [];
  const folded = new Set<string>();
  for (const [folder, kinds] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
    if (kinds.size !== 1) continue;
    folded.add(folder);
    const first = [...files].find(([url]) => url.startsWith(folder))!;
    rules.push({ path: `${folder}*`, headers: first[1] });
  }
  for (const [url, headers] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    if (!folded.has(topFolder(url) ?? '')) rules.push({ path: url, headers });
  }
  const common = Object.fromEntries(Object.entries(baseSecurityHeaders(true)).map(([k, v]) => [displayName(k), v]));
  return { common, rules, notFound };
}

const GENERATED = 'Written by `npm run build:static` from the same description of each file the app serves it with.';

/** `_headers` (Netlify, Cloudflare Pages). */
export function headersFile({ common, rules }: HostHeaders): string {
  const block = (p: string, headers: HeaderSet) => [p, ...Object.entries(headers).map(([k, v]) => `  ${k}: ${v}`)].join('\n');
  return `# ${GENERATED}\n${[block('/*', common), ...rules.map((r) => block(r.path, r.headers))].join('\n')}\n`;
}

/** `_redirects` (Netlify): the origin's paths proxied (status 200), even where a file of that name exists. */
export function redirectsFile(origin: string): string {
  const lines = ORIGIN_PREFIXES.flatMap((p) => [`${p}  ${origin}${p}  200!`, `${p}/*  ${origin}${p}/:splat  200!`]);
  return `# ${GENERATED}\n${lines.join('\n')}\n`;
}

/** `_routes.json` (Cloudflare Pages): only the origin's paths run the Pages Function that proxies them. */
export function cloudflareRoutes(): object {
  return { version: 1, include: ORIGIN_PREFIXES.flatMap((p) => [p, `${p}/*`]), exclude: [] };
}

/** `vercel.json`: clean URLs, the same headers, and the origin's paths rewritten to it. */
export function vercelConfig({ common, rules }: HostHeaders, origin: string): object {
  const list = (headers: HeaderSet) => Object.entries(headers).map(([key, value]) => ({ key, value }));
  const source = (p: string) => (p.endsWith('/*') ? `${p.slice(0, -1)}:path*` : p);
  return {
    cleanUrls: true,
    trailingSlash: false,
    headers: [{ source: '/(.*)', headers: list(common) }, ...rules.map((r) => ({ source: source(r.path), headers: list(r.headers) }))],
    rewrites: ORIGIN_PREFIXES.flatMap((p) => [
      { source: p, destination: `${origin}${p}` },
      { source: `${p}/:path*`, destination: `${origin}${p}/:path*` },
    ]),
  };
}

/** What can stand in an nginx quoted string as it is. */
const nginxQuoted = (text: string) => {
  if (!/^[\x20-\x7e]*$/.test(text) || /["\\$]/.test(text)) throw new Error(`cannot be written for nginx: ${text}`);
  return `"${text}"`;
};

/** The file path nginx's `$uri` holds once `try_files` found a URL's file. */
const fileOf = (url: string) => (url === '/' ? '/index.html' : url.includes('.') ? url : `${url}.html`);

export interface NginxOptions {
  /** The built folder (absolute). */
  root: string;
  /** The Node origin, e.g. `http://127.0.0.1:4321`. */
  origin: string;
  /** `listen` (default 8080: TLS ends at the CDN in front). */
  listen?: string;
  /** Each file's type, by its extension, as the app sends it. */
  types: Record<string, string>;
  /** The folders with a not-found page of their own (`/insights/`). */
  notFoundFolders?: string[];
}

/**
 * An nginx server (to include in `http { }`) for the built folder: each file with the app's
 * headers (maps on the file's path), the not-found pages with status 404, and the origin's paths
 * proxied with the client's address and scheme.
 */
export function nginxConfig({ common, rules, notFound }: HostHeaders, opts: NginxOptions): string {
  const map = (name: string, header: string, fallback: string) => {
    const lines = [`map $uri $${name} {`, `  default ${nginxQuoted(fallback)};`];
    for (const rule of [...rules, ...notFound]) {
      const value = rule.headers[header];
      if (value === undefined || value === fallback) continue;
      const key = rule.path.endsWith('*') ? `~^${rule.path.slice(0, -1).replace(/[.]/g, '\\.')}` : nginxQuoted(fileOf(rule.path));
      lines.push(`  ${key} ${nginxQuoted(value)};`);
    }
    return [...lines, '}'].join('\n');
  };
  const types = Object.entries(opts.types)
    .map(([ext, type]) => `    ${nginxQuoted(type)} ${ext.replace(/^\./, '')};`)
    .join('\n');
  const headers = [
    ...Object.entries(common).map(([k, v]) => `add_header ${k} ${nginxQuoted(v)} always;`),
    'add_header Cache-Control $static_cache_sent always;',
    'add_header Content-Security-Policy $static_csp always;',
    'add_header X-Robots-Tag $static_robots always;',
  ];
  const location = (match: string, ...lines: string[]) =>
    [`  location ${match} {`, ...[...lines, ...headers].map((l) => `    ${l}`), '  }'].join('\n');
  const origin = ORIGIN_PREFIXES.map((p) => p.slice(1)).join('|');
  // A folder with a not-found page of its own answers its missing paths with it (as the app does).
  const sections = (opts.notFoundFolders ?? []).filter((f) => /^\/[a-z0-9-]+\/$/.test(f));
  return `# ${GENERATED}
# Include it in nginx's http { } block; the CDN in front ends TLS.
${map('static_cache', 'Cache-Control', 'public, max-age=3600')}
map $http_x_forwarded_proto $static_forwarded_proto {
  "" $scheme;
  default $http_x_forwarded_proto;
}
map $status $static_cache_sent {
  404 "no-store";
  default $static_cache;
}
${map('static_csp', 'Content-Security-Policy', '')}
${map('static_robots', 'X-Robots-Tag', '')}
server {
  listen ${opts.listen ?? '8080'};
  root ${nginxQuoted(opts.root)};
  server_tokens off;
  charset off;
  types {
${types}
  }
  default_type application/octet-stream;
  error_page 404 /404.html;
  location ~ ^/(${origin})(/|$) {
    proxy_pass ${opts.origin};
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $static_forwarded_proto;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
  }
  location ~ ^/(_headers|_redirects|_routes\\.json|vercel\\.json)$ { return 404; }
${sections.map((f) => location(`~ ^${f}(.*/)?404(\\.html)?/*$`, 'internal;', `error_page 404 ${f}404.html;`)).join('\n')}
${location('~ /404(\\.html)?/*$', 'internal;')}
${sections.map((f) => location(f, `error_page 404 ${f}404.html;`, 'try_files $uri $uri.html $uri/index.html =404;')).join('\n')}
${location('= /', 'try_files /index.html =404;')}
${location('/', 'try_files $uri $uri.html $uri/index.html =404;')}
}
`;
}

/** The types of the files in `site`, by extension, as the app sends them. */
export function typesOf(site: StaticMap): Record<string, string> {
  const types: Record<string, string> = {};
  for (const [key, file] of site) if (key.includes('.')) types[path.extname(key)] ??= file.type;
  return types;
}

/** The folders of `site` below the top with a not-found page of their own. */
export const notFoundFolders = (site: StaticMap): string[] =>
  [...site.keys()].filter((k) => /^\/[^/]+\/404\.html$/.test(k)).map((k) => k.slice(0, -'404.html'.length));
