/**
 * Property-based fuzzing of the JSON endpoints (fast-check): wrong types, huge, deep and odd
 * values, unknown and prototype keys, public and administrator calls alike. Every answer is a
 * 4xx or a success, never a 5xx, and a refused body stores nothing.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contactInfo,
  contactResponses,
  contactSubmissions,
  contentBlocks,
  emailTemplates,
  features,
  headerContent,
  headerCta,
  insights,
  services,
  pastPerformance,
} from '#server/db/schema/index.ts';
import { TEST_ADMIN, signIn, startTestServer, type TestServer } from './helpers/server';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
  // The seed's content is counted: a sum that could not see a row would let every try pass.
  expect(await storedRows()).toBeGreaterThan(10);
}, 180_000);
afterAll(() => server?.close());

/** Everything a request could have stored, in one number. */
const TABLES = [
  insights,
  services,
  features,
  contentBlocks,
  headerCta,
  headerContent,
  emailTemplates,
  contactInfo,
  contactSubmissions,
  contactResponses,
  pastPerformance,
];
/** Their rows, summed by the database in one statement (it runs twice per try, over a thousand tries). */
const STORED_ROWS = sql.join(
  TABLES.map((t) => sql`(select count(*) from ${t})`),
  sql` + `,
);
async function storedRows(): Promise<number> {
  const [row] = await server.db.select({ n: sql`${STORED_ROWS}`.mapWith(Number) }).from(sql`(values (1)) as one (x)`);
  return row!.n;
}

const FIELDS = [
  'title',
  'name',
  'email',
  'message',
  'slug',
  'content',
  'excerpt',
  'buttonText',
  'buttonLink',
  'isActive',
  'version',
  'status',
  'section',
  'displayOrder',
  'icon',
  'password',
  'username',
  'token',
  'subject',
  'phone',
  'description',
  'authorName',
];
const odd = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 3_000, maxLength: 12_000 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    '\u0000',
    '</script><script>alert(1)</script>',
    'javascript:alert(1)',
    '/\\evil.example',
    '\r\nBcc: x@evil.example',
    '__proto__',
    '𝕏'.repeat(300),
  ),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
  fc.object({ maxDepth: 2 }),
);
const body = fc.oneof(
  fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 12 })), odd, { maxKeys: 8 }).map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '{"__proto__":{"role":"admin","isAdmin":true},"title":"x"}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    `{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
    '{"title":"a","title":"b"}',
    '{',
    '',
    'null',
    '[]',
    '"text"',
  ),
);

const ENDPOINTS: [method: string, path: string, signedIn: boolean][] = [
  ['POST', '/api/contact', false],
  ['POST', '/api/login', false],
  ['POST', '/api/register', false],
  ['POST', '/api/admin/insights', true],
  ['PATCH', '/api/admin/insights/1', true],
  ['POST', '/api/services', true],
  ['PATCH', '/api/services/1', true],
  ['POST', '/api/features', true],
  ['POST', '/api/about-features', true],
  ['POST', '/api/content/header', true],
  ['POST', '/api/content/intro', true],
  ['POST', '/api/content', true],
  ['POST', '/api/admin/email-templates', true],
  ['POST', '/api/admin/saved-replies', true],
  ['PATCH', '/api/admin/saved-replies/1', true],
  ['PUT', '/api/user/signature', true],
  ['POST', '/api/admin/contact-info', true],
  ['PATCH', '/api/contact-submissions/1/status', true],
  ['POST', '/api/contact-submissions/1/respond', true],
  ['POST', '/api/user/change-password', true],
  ['POST', '/api/auth/2fa/enable', true],
  ['PATCH', '/api/admin/company-profile', true],
  ['POST', '/api/admin/past-performance', true],
  ['PATCH', '/api/admin/past-performance/1', true],
  ['POST', '/api/documents', true],
  ['PUT', '/api/documents/1', true],
  ['DELETE', '/api/upload/image', true],
];

let tried = 0;
describe('[SECURITY][FUZZ] every JSON endpoint', { timeout: 300_000 }, () => {
  it.each(ENDPOINTS)('%s %s: never a 5xx, and a refused body stores nothing', async (method, path, signedIn) => {
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const before = await storedRows();
        const res = await server.request(path, {
          method,
          body: text,
          headers: { 'content-type': 'application/json', origin: server.url },
          cookie: signedIn ? admin : undefined,
        });
        await res.arrayBuffer();
        tried++;
        expect(res.status, `${method} ${path} ${text.slice(0, 200)}`).toBeLessThan(500);
        if (res.status >= 400) expect(await storedRows()).toBe(before);
      }),
      { numRuns: 25 },
    );
  });

  it('the prototype is never polluted', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(tried).toBeGreaterThanOrEqual(ENDPOINTS.length * 25);
  });
});
