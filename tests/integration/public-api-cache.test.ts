/**
 * Visitors' reads of the public endpoints are answered from memory until the content changes
 * (src/server/web/public-api-cache.ts): entity tags and 304s, compressed answers, a change through
 * the API seen by the very next request, administrators' answers never kept.
 */
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '#server/db/schema/index.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';

let ctx: AdminTestContext;
beforeAll(async () => {
  ctx = await startAdminContext();
});
afterAll(() => ctx?.s.close());

const PUBLIC_READS = [
  '/api/insights',
  '/api/services',
  '/api/features',
  '/api/about-features',
  '/api/federal-features',
  '/api/documents',
  '/api/contact-info/active',
  '/api/documents/public/capability',
  '/api/content/header/active',
  '/api/content/services_overview/active',
];

/** A raw GET (fetch would decompress and hide the encoding), on a connection of its own. */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('[API][CACHE] visitors’ reads of the public endpoints', () => {
  it.each(PUBLIC_READS)('%s: the same answer again with an entity tag, then 304 for a current copy', async (path) => {
    const first = await ctx.s.request(path);
    expect(first.status).toBe(200);
    const body = await first.text();
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('content-type')).toContain('application/json');
    const again = await ctx.s.request(path);
    expect(await again.text()).toBe(body);
    expect(again.headers.get('etag')).toBe(etag);
    // As a browser revalidates (fetch alone adds `Cache-Control: no-cache`, which asks for the whole answer).
    const notModified = await ctx.s.request(path, { headers: { 'if-none-match': etag!, 'cache-control': 'max-age=0' } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
  });

  it('answers are browser-cached only with revalidation, except contact information’s own lifetime', async () => {
    expect((await ctx.s.request('/api/services')).headers.get('cache-control')).toBe('no-cache');
    expect((await ctx.s.request('/api/contact-info/active')).headers.get('cache-control')).toBe(
      'public, max-age=60, stale-while-revalidate=300',
    );
  });

  it('a large answer is sent compressed to a client that accepts it, with a tag of its own', async () => {
    const url = `${ctx.s.url}/api/insights`;
    const plain = await rawGet(url);
    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const revalidated = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': String(br.headers.etag) });
    expect(revalidated.status).toBe(304);
  });

  it('HEAD answers the headers of the GET without a body', async () => {
    const get = await ctx.s.request('/api/services');
    const head = await ctx.s.request('/api/services', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(await head.text()).toBe('');
  });

  it('a change saved through the API is in the very next answer', async () => {
    const before = (await (await ctx.s.request('/api/services')).json()) as { id: number; title: string }[];
    const target = before[0]!;
    const patched = await ctx.as(ctx.admin, 'PATCH', `/api/services/${target.id}`, { title: 'Renamed by the cache test' });
    expect(patched.status).toBe(200);
    const after = (await (await ctx.s.request('/api/services')).json()) as { id: number; title: string }[];
    expect(after.find((x) => x.id === target.id)?.title).toBe('Renamed by the cache test');
  });

  it('answers come from memory: a row changed behind the server’s back is not seen until the next change', async () => {
    const [row] = (await (await ctx.s.request('/api/services')).json()) as { id: number; title: string }[];
    await ctx.s.db.update(services).set({ title: 'Written straight to the database' }).where(eq(services.id, row!.id));
    const kept = (await (await ctx.s.request('/api/services')).json()) as { id: number; title: string }[];
    expect(kept.find((x) => x.id === row!.id)?.title).toBe(row!.title);
    // Any change through the API makes every answer again.
    expect((await ctx.as(ctx.admin, 'PATCH', `/api/services/${row!.id}`, { description: 'Touched' })).status).toBe(200);
    const fresh = (await (await ctx.s.request('/api/services')).json()) as { id: number; title: string }[];
    expect(fresh.find((x) => x.id === row!.id)?.title).toBe('Written straight to the database');
  });

  it('an administrator’s read goes to the database and is never kept: inactive rows, no-store', async () => {
    const [row] = (await (await ctx.s.request('/api/services')).json()) as { id: number }[];
    expect((await ctx.as(ctx.admin, 'PATCH', `/api/services/${row!.id}`, { isActive: false })).status).toBe(200);
    const visitor = (await (await ctx.s.request('/api/services')).json()) as { id: number }[];
    expect(visitor.map((x) => x.id)).not.toContain(row!.id);
    const admin = await ctx.as(ctx.admin, 'GET', '/api/services');
    expect(admin.headers.get('cache-control')).toBe('no-store');
    expect(admin.headers.get('etag')).toBeNull();
    expect(((await admin.json()) as { id: number }[]).map((x) => x.id)).toContain(row!.id);
    // …and the visitor after it still gets the visitor's answer.
    const again = (await (await ctx.s.request('/api/services')).json()) as { id: number }[];
    expect(again.map((x) => x.id)).not.toContain(row!.id);
    await ctx.as(ctx.admin, 'PATCH', `/api/services/${row!.id}`, { isActive: true });
  });

  it('a stale session cookie goes through Astro, which clears it; the visitor answer is not kept with it', async () => {
    const res = await ctx.s.request('/api/services', { cookie: 'ps.session_token=not-a-session' });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().join('\n')).toContain('ps.session_token=');
    expect(res.headers.get('etag')).toBeNull();
  });

  it('what is not a 200 is never kept: an unknown section is a 404 each time', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await ctx.s.request('/api/content/nonsense/active');
      expect(res.status).toBe(404);
      expect(res.headers.get('etag')).toBeNull();
      expect(await res.json()).toEqual({ message: 'Unknown content section: nonsense' });
    }
  });

  it('a crowd right after a change all get the changed answer', async () => {
    const [row] = (await (await ctx.s.request('/api/services')).json()) as { id: number }[];
    expect((await ctx.as(ctx.admin, 'PATCH', `/api/services/${row!.id}`, { description: 'Crowd' })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 40 }, () => ctx.s.request('/api/services')));
    const tags = new Set(answers.map((r) => r.headers.get('etag')));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(tags.size).toBe(1);
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as { id: number; description: string }[][];
    expect(bodies.every((b) => b.find((x) => x.id === row!.id)?.description === 'Crowd')).toBe(true);
  });
});
