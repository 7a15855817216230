import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { features } from '#server/db/schema/index.ts';
import { makeUser } from './helpers/auth';
import { TEST_ADMIN, signIn, startTestServer, type TestServer } from './helpers/server';

/**
 * The endpoint walk: every file under src/pages/api and every method it exports. Anything not
 * listed below as public or "any signed-in user" is an administrator call and must answer 401
 * signed out and 403 to a role `user` account, from the guard inside the endpoint.
 * A new endpoint is picked up automatically; a new PUBLIC endpoint must be added here on purpose.
 */
const PUBLIC = new Set([
  'ALL /api/[...path]',
  'GET /api/about-features',
  'GET /api/federal-features',
  'GET /api/contact-info/active',
  'GET /api/content/[section]/active',
  'GET /api/documents',
  'GET /api/documents/public/[kind]',
  'GET /api/features',
  'GET /api/insights',
  // The insights search box: published articles only, what a visitor could read on /insights.
  'GET /api/insights/search',
  'GET /api/past-performance',
  'GET /api/services',
  'POST /api/contact',
  'POST /api/login',
  'POST /api/logout',
  'POST /api/register',
  'POST /api/auth/2fa/verify',
  // The link step of a provider sign-in: the held link's cookie and the account's password.
  'POST /api/auth/link',
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password',
  'GET /api/auth/providers',
  'GET /api/auth/[provider]',
  'GET /api/auth/callback/[provider]',
  'POST /api/auth/callback/[provider]',
]);
/** Any signed-in account (their own session and security settings): 401 signed out only. */
const SIGNED_IN = new Set([
  'GET /api/user',
  'POST /api/user/change-password',
  'POST /api/user/keep-alive',
  'GET /api/auth/2fa/status',
  'POST /api/auth/2fa/setup',
  'POST /api/auth/2fa/enable',
  'POST /api/auth/2fa/disable',
  'GET /api/user/identities',
  'DELETE /api/user/identities/[id]',
]);
/** A static host's build, with the deploy token (DEPLOY_TOKEN) only: no session of any account opens it. */
const DEPLOY_TOKEN_ONLY = new Set(['GET /api/deploy/snapshot']);

const SAMPLE_PARAMS: Record<string, string> = {
  section: 'intro',
  kind: 'capability',
  slug: 'sample',
  provider: 'google',
  filename: 'sample.png',
};
const METHOD_EXPORT = /export\s+(?:const|let|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE|ALL)\b|export\s*\{([^}]*)\}/g;

interface Route {
  file: string;
  route: string;
  url: string;
  methods: string[];
  source: string;
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : /\.(ts|js|mjs)$/.test(e.name) ? [p] : [];
  });
}

function discover(): Route[] {
  const root = path.resolve('src/pages');
  return walk(path.join(root, 'api')).map((file) => {
    const source = fs.readFileSync(file, 'utf8');
    const route =
      '/' +
      path
        .relative(root, file)
        .split(path.sep)
        .join('/')
        .replace(/\.(ts|js|mjs)$/, '')
        .replace(/\/index$/, '');
    const url = route
      .replace(/\[\.\.\.(\w+)\]/g, 'no/such/endpoint')
      .replace(/\[(\w+)\]/g, (_, name: string) => SAMPLE_PARAMS[name] ?? '1');
    const methods = new Set<string>();
    for (const m of source.matchAll(METHOD_EXPORT)) {
      if (m[1]) methods.add(m[1]);
      for (const part of m[2]?.split(',') ?? []) {
        const name = part
          .trim()
          .split(/\s+as\s+/)
          .pop()
          ?.trim();
        if (name && /^(GET|POST|PUT|PATCH|DELETE|ALL)$/.test(name)) methods.add(name);
      }
    }
    return { file: path.relative(process.cwd(), file), route, url, methods: [...methods], source };
  });
}

const routes = discover();
/** The verb that reaches an export: an `ALL` export only sees methods the file does not export itself. */
function verbFor(method: string, exported: string[]): string {
  if (method !== 'ALL') return method;
  return ['PUT', 'PATCH', 'DELETE', 'POST'].find((v) => !exported.includes(v))!;
}
const allCases = routes.flatMap((r) =>
  r.methods.map((method) => ({ ...r, method, verb: verbFor(method, r.methods), key: `${method} ${r.route}` })),
);
/** `export const ALL = methodNotAllowed([...])`: a 405 for other methods, nothing to guard. */
const refusers = allCases.filter((c) => c.method === 'ALL' && /export const ALL = methodNotAllowed\(/.test(c.source));
const cases = allCases.filter((c) => !refusers.includes(c));
const adminCases = cases.filter((c) => !PUBLIC.has(c.key) && !SIGNED_IN.has(c.key) && !DEPLOY_TOKEN_ONLY.has(c.key));
const guardedCases = cases.filter((c) => !PUBLIC.has(c.key));

let server: TestServer;
let userCookie: string;
let adminCookie: string;

function call(verb: string, url: string, cookie?: string) {
  return server.request(url, verb === 'GET' || verb === 'HEAD' ? { method: verb, cookie } : { method: verb, cookie, json: {} });
}

beforeAll(async () => {
  server = await startTestServer();
  const plain = await makeUser(server, 'plainuser', 'plain-user-password');
  userCookie = await signIn(server, plain.username, plain.password);
  adminCookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
}, 180_000);
afterAll(async () => {
  await server?.close();
});

describe('[SECURITY] access control on every endpoint', { timeout: 120_000 }, () => {
  it('[AUTH][WALK]: finds every endpoint file and at least one exported method in each', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    for (const r of routes) expect(r.methods, `${r.file} exports no HTTP method the walk recognises`).not.toHaveLength(0);
    for (const r of routes) expect(r.source, `${r.file} must be on-demand`).toMatch(/export const prerender = false/);
  });

  it('[AUTH][WALK]: guarded endpoints check inside the handler with the shared guard, never by URL', () => {
    for (const c of adminCases) expect(c.source, `${c.key} (${c.file}) must call requireAdmin(locals)`).toMatch(/requireAdmin\(/);
    for (const c of cases.filter((x) => SIGNED_IN.has(x.key)))
      expect(c.source, `${c.key} must call requireUser or requireAdmin`).toMatch(/require(User|Admin)\(/);
    // Every allowlisted entry names a real endpoint, so the lists cannot drift into fiction unnoticed
    // (POST /api/contact belongs to the leads work and may land later).
    const known = new Set(cases.map((c) => c.key));
    for (const key of SIGNED_IN) expect(known.has(key), `${key} is listed but does not exist`).toBe(true);
  });

  it('[AUTH][WALK]: method-refusing ALL exports answer 405 and nothing else', async () => {
    for (const c of refusers) {
      expect((await call(c.verb, c.url)).status, `${c.verb} ${c.route}`).toBe(405);
      expect((await call(c.verb, c.url, adminCookie)).status, `${c.verb} ${c.route} as admin`).toBe(405);
    }
  });

  it('[AUTH][WALK]: signed out, every guarded call answers 401', async () => {
    expect(guardedCases.length).toBeGreaterThan(0);
    for (const c of guardedCases) {
      const res = await call(c.verb, c.url);
      expect(res.status, `${c.key} signed out`).toBe(401);
      expect(res.headers.get('content-type'), `${c.key} answers JSON`).toMatch(/application\/json/);
    }
  });

  it('[AUTH][WALK]: a role `user` account gets 403 from every administrator call', async () => {
    for (const c of adminCases) {
      const res = await call(c.verb, c.url, userCookie);
      expect(res.status, `${c.key} as role user`).toBe(403);
    }
    // ... while the same account does reach its own endpoints (the cookie is a real session).
    expect((await call('GET', '/api/user', userCookie)).status).toBe(200);
  });

  it('[AUTH][WALK]: the deploy snapshot opens to no session, not even an administrator’s', async () => {
    for (const key of DEPLOY_TOKEN_ONLY)
      expect(
        cases.some((c) => c.key === key),
        `${key} exists`,
      ).toBe(true);
    for (const c of cases.filter((x) => DEPLOY_TOKEN_ONLY.has(x.key)))
      for (const cookie of [undefined, userCookie, adminCookie]) expect((await call(c.verb, c.url, cookie)).status, c.key).toBe(401);
  });

  it('[AUTH][WALK]: an administrator gets past the guard on every administrator call', async () => {
    for (const c of adminCases) {
      const res = await call(c.verb, c.url, adminCookie);
      expect([401, 403], `${c.key} as admin: ${res.status}`).not.toContain(res.status);
    }
  });

  it('[AUTH][PATHS]: odd path forms never get past the guard', async () => {
    const targets = [...new Set(guardedCases.map((c) => c))];
    expect(targets.length).toBeGreaterThan(0);
    const variants = (url: string) => [
      url.replace('/api/', '/API/'),
      url.replace('/api/', '/Api/'),
      `/${url}`,
      url.replace('/api/', '//api/'),
      `${url}/`,
      `${url}//`,
      url.replace(/\/api\/(\w)/, (_, ch: string) => `/api/%${ch.charCodeAt(0).toString(16)}`),
      url.replace('/api/', '/api/./'),
      url.replace('/api/', '/x/../api/'),
      `${url}%2f`,
      `${url};.json`,
      `${url}?_method=GET`,
    ];
    for (const c of targets) {
      for (const odd of variants(c.url)) {
        const out = await call(c.verb, odd);
        expect(out.status < 200 || out.status >= 300, `${c.method} ${odd} signed out answered ${out.status}`).toBe(true);
        if (!SIGNED_IN.has(c.key)) {
          const asUser = await call(c.verb, odd, userCookie);
          expect(asUser.status < 200 || asUser.status >= 300, `${c.method} ${odd} as user answered ${asUser.status}`).toBe(true);
        }
      }
    }
    // The plain form with a session works, so the refusals above are about the path, not a broken server.
    expect((await call('GET', '/api/user', adminCookie)).status).toBe(200);
  });

  it('[SECURITY][WALK]: a body field no form has answers 400 naming it, on every guarded call that reads a JSON body', async () => {
    // Calls whose body is read only to be checked as JSON (no field of it is used).
    const fieldless = new Set(['POST /api/user/keep-alive', 'POST /api/auth/2fa/setup']);
    // A multipart upload: a file, not JSON fields (its file checks are tests of their own).
    fieldless.add('POST /api/upload/image');
    // What a body needs before its fields are read: the section of a new content block.
    const base: Record<string, object> = { 'POST /api/content': { section: 'intro' } };
    const readers = guardedCases.filter(
      (c) => ['POST', 'PUT', 'PATCH'].includes(c.verb) && /\breadJson\(|\breadBody\(/.test(c.source) && !fieldless.has(c.key),
    );
    expect(readers.length).toBeGreaterThanOrEqual(25);
    // The one DELETE with a body: the image picker's.
    readers.push({ ...readers[0]!, key: 'DELETE /api/upload/image', verb: 'DELETE', url: '/api/upload/image' });
    // `PATCH /api/content/{id}`: the route's parameter is a block's id.
    const [card] = await server.db.select({ id: features.id }).from(features).limit(1);
    const urls: Record<string, string> = {
      'PATCH /api/content/[section]': '/api/content/1',
      'PATCH /api/features/[id]': `/api/features/${card!.id}`,
    };
    const answers: string[] = [];
    for (const c of readers) {
      const res = await server.request(urls[c.key] ?? c.url, {
        method: c.verb,
        cookie: adminCookie,
        json: { ...base[c.key], published: true },
      });
      answers.push(`${c.key}: ${res.status} ${(await res.json()).message}`);
    }
    expect(answers).toEqual(readers.map((c) => `${c.key}: 400 Unknown field: published`));
    const two = await server.request('/api/admin/company-profile', {
      method: 'PATCH',
      cookie: adminCookie,
      json: { legalName: 'Renamed LLC', legalNmae: 'Typo LLC', ueiNumber: 'X' },
    });
    expect(two.status).toBe(400);
    expect((await two.json()).message).toBe('Unknown fields: legalNmae, ueiNumber');
    // At any depth: inside a list's items and a nested object, named by their place (shallowest first).
    const nested = await server.request('/api/admin/company-profile', {
      method: 'PATCH',
      cookie: adminCookie,
      json: {
        legalName: 'Renamed LLC',
        naicsCodes: [{ code: '423430', title: 'Computer Equipment', evil: 1 }],
        certifications: [{ name: 'WOSB' }, { name: 'ISO 9001', issuer: 'x' }],
        figures: { bogus: 'x' },
      },
    });
    expect(nested.status).toBe(400);
    expect((await nested.json()).message).toBe('Unknown fields: figures.bogus, naicsCodes[0].evil, certifications[1].issuer');
    const profile = await server.request('/api/admin/company-profile', { cookie: adminCookie });
    expect(JSON.stringify(await profile.json())).not.toContain('Renamed LLC');
  });

  it('[AUTH][CSRF]: a state-changing call from another site is refused before anything else', async () => {
    for (const c of allCases.filter((x) => !['GET', 'HEAD'].includes(x.verb))) {
      const res = await server.request(c.url, {
        method: c.verb,
        cookie: adminCookie,
        json: {},
        headers: { origin: 'https://evil.example' },
      });
      expect(res.status, `${c.key} cross-site`).toBe(403);
    }
  });

  it('[AUTH][HEADERS]: API and not-found answers carry the security headers', async () => {
    for (const p of ['/api/user', '/api/no-such-endpoint', '/no-such-page']) {
      const res = await server.request(p);
      expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), p).toBeTruthy();
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, p).toContain("frame-ancestors 'none'");
      expect(csp, p).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    }
  });
});
