import { and, count, eq, like, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactSubmissions, rateLimits } from '#server/db/schema/index.ts';
import { CONTACT_FLOOD, inboxPerDay } from '#server/services/contact.ts';
import { byStatus, closeSenders, inParallel, postJson } from './helpers/flood';
import { startTestServer, type TestServer } from './helpers/server';
import { resetEnvCache } from '../helpers/bundle';

/*
 * Behind a trusted proxy (TRUST_PROXY names its address: 127.0.0.2 here) the limits count the
 * forwarded client address, an IPv6 one by its /64: a client who owns a /64 cannot pick a fresh
 * address for each message. Any other peer's forwarding headers are ignored.
 */
const PROXY = '127.0.0.2';

let s: TestServer;

beforeAll(async () => {
  process.env.TRUST_PROXY = PROXY;
  resetEnvCache();
  s = await startTestServer({ trustProxy: 'env' });
}, 180_000);
afterAll(async () => {
  closeSenders();
  await s?.close();
  delete process.env.TRUST_PROXY;
  resetEnvCache();
});

const inquiry = (tag: string) => ({
  name: `Visitor ${tag}`,
  email: 'visitor@agency.gov',
  message: `Inquiry ${tag} about a supply contract.`,
  elapsedMs: 15_000,
  website: '',
});
/** A post as the proxy forwards it: the client's address last in X-Forwarded-For. */
const post = (tag: string, forwardedFor: string, localAddress = PROXY) =>
  postJson(s.url, '/api/contact', inquiry(tag), { forwardedFor, localAddress });
const rowOf = async (answer: { body: string }) =>
  (
    await s.db
      .select()
      .from(contactSubmissions)
      .where(eq(contactSubmissions.id, (JSON.parse(answer.body) as { id: number }).id))
  )[0]!;
const submissions = async (where: SQL | undefined) => (await s.db.select({ n: count() }).from(contactSubmissions).where(where))[0]!.n;

describe('[SECURITY] TRUST_PROXY names the proxies; the stored address is an IP address', () => {
  it('X-Forwarded-For from any other peer is ignored: its own address is stored and counted', async () => {
    const forged = await post('forged', '203.0.113.50', '127.0.0.3');
    expect(forged.status).toBe(201);
    expect(await rowOf(forged)).toMatchObject({ ipAddress: '127.0.0.3' });
    const proxied = await post('proxied', '198.51.100.1, 203.0.113.50');
    expect(await rowOf(proxied)).toMatchObject({ ipAddress: '203.0.113.50' });
  });

  it('a forwarded hop that is not an IP address is never stored (a 6,000-character one included)', async () => {
    for (const hop of ['x'.repeat(6000), '203.0.113.50, <script>alert(1)</script>', '999.1.1.1', '::ffff:203.0.113.77']) {
      const answer = await post(`odd-${hop.length}`, hop);
      expect(answer.status, hop.slice(0, 40)).toBe(201);
      expect((await rowOf(answer)).ipAddress, hop.slice(0, 40)).toBe(hop.startsWith('::ffff:') ? '203.0.113.77' : null);
    }
  });
});

describe('[SECURITY][LEADS][FLOOD] limits per forwarded client address and IPv6 /64', { timeout: 120_000 }, () => {
  it('two addresses in one /64 share an allowance; another /64 does not', async () => {
    const allowance = inboxPerDay();
    const first = await inParallel(
      Array.from({ length: allowance }, (_, i) => i),
      8,
      (i) => post(`v6-${i}`, '2001:db8:aa:1::1'),
    );
    expect(byStatus(first)).toEqual({ 201: allowance });
    expect(await submissions(and(like(contactSubmissions.name, 'Visitor v6-%'), eq(contactSubmissions.isSpam, false)))).toBe(allowance);

    const sameNetwork = await post('v6-neighbour', '2001:db8:aa:1:8000:abcd:1234:77');
    expect(sameNetwork.status).toBe(201);
    expect(await rowOf(sameNetwork)).toMatchObject({ isSpam: true, spamReason: 'flood', ipAddress: '2001:db8:aa:1:8000:abcd:1234:77' });

    const otherNetwork = await post('v6-other', '2001:db8:aa:2::1');
    expect(otherNetwork.status).toBe(201);
    expect(await rowOf(otherNetwork)).toMatchObject({ isSpam: false, spamReason: null });
  });

  it('an IPv4 address counts as itself also when the proxy writes it IPv4-mapped', async () => {
    for (let i = 0; i < inboxPerDay(); i++) expect((await post(`v4-${i}`, '198.51.100.7')).status).toBe(201);
    const mapped = await post('v4-mapped', '::ffff:198.51.100.7');
    expect(await rowOf(mapped)).toMatchObject({ isSpam: true, spamReason: 'flood' });
    expect(await rowOf(await post('v4-next', '198.51.100.8'))).toMatchObject({ isSpam: false });
  });

  it('addresses rotated inside a few /64s do not get around the allowance, and a fresh visitor still gets in', async () => {
    const networks = ['2001:db8:bad:1', '2001:db8:bad:2', '2001:db8:bad:3', '2001:db8:bad:4'];
    const posts = Array.from({ length: networks.length * 100 }, (_, i) => ({
      tag: `rot-${i}`,
      from: `${networks[i % networks.length]}:${((i * 7919) % 65536).toString(16)}:1:2:${i.toString(16)}`,
    }));
    const answers = await inParallel(posts, 12, ({ tag, from }) => post(tag, from));
    expect(byStatus(answers)).toEqual({ 201: posts.length });
    expect(await submissions(and(like(contactSubmissions.name, 'Visitor rot-%'), eq(contactSubmissions.isSpam, false)))).toBe(
      networks.length * inboxPerDay(),
    );
    expect(await submissions(and(like(contactSubmissions.name, 'Visitor rot-%'), eq(contactSubmissions.spamReason, 'flood')))).toBe(
      networks.length * (100 - inboxPerDay()),
    );
    const visitor = await post('fresh', '2001:db8:cafe:1::10');
    expect(visitor.status).toBe(201);
    expect(await rowOf(visitor)).toMatchObject({ isSpam: false });
  });

  it("past its daily ceiling only that address is refused, with the refusal's text and Retry-After; another gets 201 right after", async () => {
    const flooder = '203.0.113.50';
    expect((await post('ceiling-0', flooder)).status).toBe(201);
    // As if it had gone on sending all day: three messages short of the ceiling.
    await s.db
      .update(rateLimits)
      .set({ count: CONTACT_FLOOD.ceilingPerDay - 3 })
      .where(eq(rateLimits.key, `contact:day:${flooder}`));
    for (let i = 1; i <= 3; i++) {
      const stored = await post(`ceiling-${i}`, flooder);
      expect(stored.status).toBe(201);
      expect(await rowOf(stored)).toMatchObject({ name: `Visitor ceiling-${i}`, ipAddress: flooder });
    }
    const before = await submissions(undefined);
    const refused = await post('ceiling-refused', flooder);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).message).toMatch(
      /^We are receiving an unusually high number of messages and could not accept yours right now\./,
    );
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(60 * 60);
    expect(retryAfter).toBeLessThanOrEqual(24 * 60 * 60);
    expect((await post('ceiling-refused-again', flooder)).status).toBe(429);
    expect(await submissions(undefined)).toBe(before);

    // Its neighbour in the same IPv4 /24, and anyone else, right after.
    const other = await post('after-ceiling', '203.0.113.51');
    expect(other.status).toBe(201);
    expect(await rowOf(other)).toMatchObject({ isSpam: false });
  });
});
