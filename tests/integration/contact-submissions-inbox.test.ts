import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeStamps, contactResponses, contactSubmissions, mailOutbox, users, type ContactSubmission } from '#server/db/schema/index.ts';
import { submissionsWhere, walkedWhere } from '#server/services/contact-submissions.ts';
import { startAdminContext, type AdminTestContext } from './helpers/admin';

let t: AdminTestContext;
beforeAll(async () => {
  t = await startAdminContext();
}, 180_000);
afterAll(async () => {
  await t?.s.close();
});

type Row = typeof contactSubmissions.$inferInsert;
/** Rows straight into the table (the inbox reads what is stored; how it got there is the contact form's business). */
async function insert(rows: Row[]): Promise<ContactSubmission[]> {
  const out: ContactSubmission[] = [];
  for (let i = 0; i < rows.length; i += 1000) {
    out.push(
      ...(await t.s.db
        .insert(contactSubmissions)
        .values(rows.slice(i, i + 1000))
        .returning()),
    );
  }
  return out;
}
const lead = (over: Partial<Row> = {}): Row => ({
  name: 'Pat Buyer',
  email: 'pat@agency.gov',
  message: 'We need forty laptops by June.',
  ...over,
});
let n = 0;
/** A word that appears nowhere else, to make each test's rows its own set. */
const marker = () => `mk${Date.now().toString(36)}x${(n++).toString(36)}`;

const get = (path: string, headers: Record<string, string> = {}) => t.s.request(path, { headers: { ...headers, cookie: t.admin } });
async function list(path: string) {
  const res = await get(path);
  expect(res.status, await res.clone().text()).toBe(200);
  return {
    res,
    body: (await res.json()) as { id: number; name: string; isSpam: boolean; status: string; responses: unknown[] }[],
    next: /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null,
    total: Number(res.headers.get('x-total-count')),
  };
}
/** Every page from `path` on, following Link: the ids in order and each page's total. */
async function walk(path: string) {
  const ids: number[] = [];
  const totals: number[] = [];
  let next: string | null = path;
  while (next) {
    const page = await list(next);
    ids.push(...page.body.map((r) => r.id));
    totals.push(page.total);
    next = page.next;
  }
  return { ids, totals };
}

describe('[LEADS][API] paging', () => {
  it('pages newest first with Link and X-Total-Count, across rows that share a created_at', async () => {
    const m = marker();
    const same = new Date('2026-03-02T10:00:00.123Z');
    const rows = await insert([
      lead({ message: `${m} oldest`, createdAt: new Date('2026-03-01T09:00:00Z') }),
      lead({ message: `${m} tie a`, createdAt: same }),
      lead({ message: `${m} tie b`, createdAt: same }),
      lead({ message: `${m} tie c`, createdAt: same }),
      lead({ message: `${m} tie d`, createdAt: same }),
      lead({ message: `${m} newest`, createdAt: new Date('2026-03-03T09:00:00Z') }),
      lead({ message: `${m} spam`, createdAt: same, isSpam: true }),
    ]);
    // A microsecond later than the ties, which a millisecond cursor would lose.
    await t.s.db.execute(sql`update contact_submission set created_at = created_at + interval '1 microsecond' where id = ${rows[1]!.id}`);
    const ordered = await t.s.db
      .select({ id: contactSubmissions.id })
      .from(contactSubmissions)
      .where(sql`message like ${`${m}%`}`)
      .orderBy(desc(contactSubmissions.createdAt), desc(contactSubmissions.id));
    expect(ordered[0]!.id).toBe(rows[5]!.id);
    expect(ordered.at(-1)!.id).toBe(rows[0]!.id);

    const all = await walk(`/api/contact-submissions?q=${m}&limit=2`);
    expect(all.ids).toEqual(ordered.map((r) => r.id));
    expect(all.ids).toHaveLength(7);
    expect(all.totals).toEqual([7, 7, 7, 7]);

    const inbox = await walk(`/api/contact-submissions?q=${m}&view=inbox&limit=3`);
    expect(inbox.ids).toEqual(ordered.map((r) => r.id).filter((id) => id !== rows[6]!.id));
    expect(inbox.totals).toEqual([6, 6]);

    // The next link keeps the filters.
    const first = await list(`/api/contact-submissions?q=${m}&view=inbox&limit=3`);
    const next = new URL(first.next!, t.s.url);
    expect(Object.fromEntries(next.searchParams)).toMatchObject({ q: m, view: 'inbox', limit: '3' });
    expect(next.searchParams.get('cursor')).toMatch(/^[\w-]+$/);
    // A parameter the list does not take changes nothing: the same answer, and its link leaves it out.
    const odd = await list(`/api/contact-submissions?zz=1&limit=3&view=inbox&q=${m}`);
    expect(odd.res.headers.get('etag')).toBe(first.res.headers.get('etag'));
    expect(odd.next).toBe(first.next);
  });

  it('50 by default, up to 200 on request, and no Link on the last page', async () => {
    const m = marker();
    await insert(
      Array.from({ length: 201 }, (_, i) => lead({ message: `${m} number ${i}`, createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)) })),
    );
    const page = await list(`/api/contact-submissions?q=${m}`);
    expect(page.body).toHaveLength(50);
    expect(page.total).toBe(201);
    expect(page.next).not.toBeNull();
    const big = await list(`/api/contact-submissions?q=${m}&limit=200`);
    expect(big.body).toHaveLength(200);
    const last = await list(big.next!);
    expect(last.body).toHaveLength(1);
    expect(last.next).toBeNull();
    expect(last.res.headers.get('link')).toBeNull();
  });

  it.each([
    ['limit=0', 'Limit must be a whole number from 1 to 200'],
    ['limit=201', 'Limit must be a whole number from 1 to 200'],
    ['limit=abc', 'Limit must be a whole number from 1 to 200'],
    ['limit=2.5', 'Limit must be a whole number from 1 to 200'],
    ['view=all', 'View must be inbox or spam'],
    ['status=archived', 'Status must be all, pending, in_progress or completed'],
    ['buyerType=agency', 'Buyer type must be government, manufacturer, consulting or other'],
    [`q=${'x'.repeat(201)}`, 'Search must be at most 200 characters'],
    // [SECURITY] one letter matched nearly every row and held the embedded database for seconds.
    ['q=e', 'Search needs at least 2 characters'],
    ['q=%20e%20', 'Search needs at least 2 characters'],
    ['cursor=not-a-cursor', 'Invalid cursor'],
    [`cursor=${Buffer.from('["2026-02-31T00:00:00.000000Z",1]').toString('base64url')}`, 'Invalid cursor'],
    [`cursor=${Buffer.from('["2026-02-01T00:00:00.000000Z",99999999999]').toString('base64url')}`, 'Invalid cursor'],
    [`cursor=${Buffer.from('{"a":1}').toString('base64url')}`, 'Invalid cursor'],
  ])('?%s is a 400 with a message', async (query, message) => {
    const res = await get(`/api/contact-submissions?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await res.json()).message).toBe(message);
  });
});

describe('[LEADS][API] filters run in the database', () => {
  it('view, status, buyer type, and a search over name, e-mail, company, phone, solicitation and message', async () => {
    const m = marker();
    const [a, b, c, d, e, f] = await insert([
      lead({ name: `Ann ${m}`, status: 'pending', buyerType: 'government' }),
      lead({ email: `bob.${m}@navy.mil`, status: 'completed', buyerType: 'manufacturer' }),
      lead({ company: `Cy ${m} Corp`, status: 'in_progress' }),
      lead({ phone: `202 ${m}`, isSpam: true, spamReason: 'honeypot' }),
      lead({ solicitation: `RFQ-${m.toUpperCase()}`, buyerType: 'government' }),
      lead({ message: `Forty laptops, ${m}.`, buyerType: 'consulting' }),
    ]);
    const ids = async (query: string) => (await walk(`/api/contact-submissions?q=${m}&limit=200${query}`)).ids.sort();
    expect(await ids('')).toEqual([a, b, c, d, e, f].map((r) => r!.id).sort());
    expect(await ids('&view=inbox')).toEqual([a, b, c, e, f].map((r) => r!.id).sort());
    expect(await ids('&view=spam')).toEqual([d!.id]);
    expect(await ids('&view=inbox&status=completed')).toEqual([b!.id]);
    expect(await ids('&status=in_progress')).toEqual([c!.id]);
    expect(await ids('&buyerType=government')).toEqual([a, e].map((r) => r!.id).sort());
    expect(await ids('&buyerType=consulting&view=inbox')).toEqual([f!.id]);
    expect(await ids('&buyerType=other')).toEqual([]);
    // Case does not matter; the solicitation is searched too.
    expect((await list(`/api/contact-submissions?q=rfq-${m}`)).body.map((r) => r.id)).toEqual([e!.id]);
    expect((await list(`/api/contact-submissions?q=${encodeURIComponent(`ANN ${m.toUpperCase()}`)}`)).body.map((r) => r.id)).toEqual([
      a!.id,
    ]);
  });

  it('takes % _ and \\ in a search literally', async () => {
    const m = marker();
    const [pct, plain, under, other, slash] = await insert([
      lead({ message: `${m} save 100% today` }),
      lead({ message: `${m} save 1000 today` }),
      lead({ message: `${m} part a_b` }),
      lead({ message: `${m} part axb` }),
      lead({ message: `${m} path c:\\d` }),
    ]);
    const found = async (q: string) => (await list(`/api/contact-submissions?q=${encodeURIComponent(q)}`)).body.map((r) => r.id);
    expect(await found(`${m} save 100%`)).toEqual([pct!.id]);
    expect(await found(`${m} part a_b`)).toEqual([under!.id]);
    expect(await found(`${m} path c:\\d`)).toEqual([slash!.id]);
    expect(await found(`${m} %`)).toEqual([]);
    expect(await found(`${m} _`)).toEqual([]);
    expect(plain && other).toBeTruthy();
  });

  it('no view means both views; the page carries only its own rows’ responses', async () => {
    const m = marker();
    const [inbox, spam] = await insert([lead({ message: `${m} inbox` }), lead({ message: `${m} spam`, isSpam: true })]);
    await t.s.db.insert(contactResponses).values([
      { submissionId: inbox!.id, message: 'First reply' },
      { submissionId: inbox!.id, message: 'Second reply' },
    ]);
    const page = await list(`/api/contact-submissions?q=${m}`);
    expect(page.body.map((r) => [r.id, r.isSpam])).toEqual([
      [spam!.id, true],
      [inbox!.id, false],
    ]);
    expect(page.body[1]!.responses).toHaveLength(2);
    expect(page.body[1]).not.toHaveProperty('ipAddress');
  });

  it('the search can use the trigram index (its expression is the index’s), a view its keyset index', async () => {
    // A handful of rows: the planner is told to avoid a sequential scan, to see which index fits.
    const plan = async (where: ReturnType<typeof submissionsWhere>, page = true) =>
      t.s.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const q = tx.select({ id: contactSubmissions.id }).from(contactSubmissions).where(where);
        const query = page ? q.orderBy(desc(contactSubmissions.createdAt), desc(contactSubmissions.id)).limit(51) : q;
        const result = (await tx.execute(sql`explain ${query}`)) as unknown as { rows?: unknown[] } & unknown[];
        return JSON.stringify(result.rows ?? result);
      });
    // The search's expression is the index's, so the index can answer it.
    expect(await plan(submissionsWhere({ status: 'all', q: 'laptops' }), false)).toContain('contact_submission_search_idx');
    // [SECURITY] The walk's is not: inside a window the planner cannot swap the range for the
    // index, which gathers every match of a common word in one query (over a second at 100,000).
    expect(await plan(walkedWhere({ status: 'all', q: 'laptops' }), false)).not.toContain('contact_submission_search_idx');
    // Which (is_spam[, status], created_at, id) index pages a view depends on the table's size: the leads bench checks it at 100,000 rows.
    expect(await plan(submissionsWhere({ view: 'inbox', status: 'pending', q: '' }))).toMatch(/contact_submission_(view|status)_idx/);
  });
});

describe('[LEADS][API] counts, ETags and one submission', () => {
  it('counts the inbox per status, the spam and the new ones in one answer', async () => {
    await insert([lead({ status: 'completed' }), lead({ isSpam: true }), lead({ status: 'in_progress' }), lead()]);
    const res = await get('/api/contact-submissions/counts');
    expect(res.status).toBe(200);
    const counts = await res.json();
    const truth = async (where: ReturnType<typeof sql>) =>
      Number(
        (
          await t.s.db
            .select({ n: sql<number>`count(*)` })
            .from(contactSubmissions)
            .where(where)
        )[0]!.n,
      );
    const pending = await truth(sql`not is_spam and status = 'pending'`);
    const inProgress = await truth(sql`not is_spam and status = 'in_progress'`);
    const completed = await truth(sql`not is_spam and status = 'completed'`);
    expect(counts).toEqual({
      inbox: { pending, in_progress: inProgress, completed, total: pending + inProgress + completed },
      spam: await truth(sql`is_spam`),
      new: pending,
    });
    expect(pending).toBeGreaterThan(0);
    expect(counts.spam).toBeGreaterThan(0);
  });

  it.each(['/api/contact-submissions?view=inbox', '/api/contact-submissions/counts'])(
    '%s answers 304 to its own ETag until something changes',
    async (path) => {
      const [row] = await insert([lead({ message: `${marker()} etag` })]);
      const first = await get(path);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      expect(first.headers.get('cache-control')).toBe('no-store');
      const again = await get(path, { 'if-none-match': etag!, 'cache-control': 'no-cache' });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect((await get(path, { 'if-none-match': 'W/"something-else"' })).status).toBe(200);

      expect((await t.as(t.admin, 'PATCH', `/api/contact-submissions/${row!.id}/status`, { status: 'completed' })).status).toBe(200);
      const changed = await get(path, { 'if-none-match': etag! });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
    },
  );

  it('a poll is answered from the cache until the leads stamp moves, and every change that shows moves it', async () => {
    const m = marker();
    const path = `/api/contact-submissions?q=${m}`;
    const stamp = async () => (await t.s.db.select({ n: changeStamps.n }).from(changeStamps).where(eq(changeStamps.name, 'leads')))[0]!.n;
    const [row] = await insert([lead({ message: `${m} cached` })]);
    const first = await list(path);
    expect(first.body.map((r) => r.status)).toEqual(['pending']);

    // A change the triggers do not see (they are off) is not shown: the answer comes from the cache.
    await t.s.db.execute(sql`alter table contact_submission disable trigger contact_submission_leads_stamp`);
    try {
      await t.s.db.execute(sql`update contact_submission set status = 'completed' where id = ${row!.id}`);
    } finally {
      await t.s.db.execute(sql`alter table contact_submission enable trigger contact_submission_leads_stamp`);
    }
    expect((await list(path)).body.map((r) => r.status)).toEqual(['pending']);

    // Any other committed change to a submission moves the stamp, and the next poll shows both.
    let before = await stamp();
    await t.s.db.execute(sql`update contact_submission set company = 'Navy Supply' where id = ${row!.id}`);
    expect(await stamp()).toBe(before + 1);
    expect((await list(path)).body).toMatchObject([{ status: 'completed', company: 'Navy Supply' }]);

    // One transaction of many changes moves it once.
    before = await stamp();
    await t.s.db.transaction(async (tx) => {
      await tx.execute(sql`update contact_submission set status = 'in_progress' where id = ${row!.id}`);
      await tx.execute(sql`update contact_submission set status = 'pending' where id = ${row!.id}`);
      await tx.insert(contactResponses).values({ submissionId: row!.id, message: 'Thanks, Pat.' });
    });
    expect(await stamp()).toBe(before + 1);
    expect((await list(path)).body[0]!.responses).toHaveLength(1);

    // A reply's delivery and a replier's name show in the list; a staff notification does not move the stamp.
    before = await stamp();
    const mail = { toAddress: 'pat@agency.gov', subject: 'Re', textBody: 'Text' };
    await t.s.db.insert(mailOutbox).values({ ...mail, kind: 'contact.notification' });
    expect(await stamp()).toBe(before);
    const [outbox] = await t.s.db
      .insert(mailOutbox)
      .values({ ...mail, kind: 'contact.response', status: 'sent' })
      .returning({ id: mailOutbox.id });
    expect(await stamp()).toBe(before + 1);
    const [replier] = await t.s.db.select({ id: users.id }).from(users).where(eq(users.username, 'plainuser'));
    await t.s.db
      .update(contactResponses)
      .set({ outboxId: outbox!.id, sentBy: replier!.id })
      .where(eq(contactResponses.submissionId, row!.id));
    expect((await list(path)).body[0]!.responses).toMatchObject([{ delivery: { status: 'sent' }, sentBy: 'plainuser' }]);
    before = await stamp();
    await t.s.db.update(users).set({ username: 'plainuser-renamed' }).where(eq(users.id, replier!.id));
    try {
      expect(await stamp()).toBe(before + 1);
      expect((await list(path)).body[0]!.responses).toMatchObject([{ sentBy: 'plainuser-renamed' }]);
    } finally {
      await t.s.db.update(users).set({ username: 'plainuser' }).where(eq(users.id, replier!.id));
    }

    // Counts follow the same stamp.
    const counts = async () => ((await (await get('/api/contact-submissions/counts')).json()) as { spam: number }).spam;
    const spam = await counts();
    await t.s.db.execute(sql`update contact_submission set is_spam = true where id = ${row!.id}`);
    expect(await counts()).toBe(spam + 1);
  });

  it('GET /api/contact-submissions/{id}: the submission with its responses; 404 and 400 as JSON', async () => {
    const [row] = await insert([lead({ name: 'Solo Buyer', solicitation: 'RFQ-1', buyerType: 'government', responseDue: '2026-12-03' })]);
    await t.s.db.insert(contactResponses).values({ submissionId: row!.id, message: 'On it' });
    const res = await get(`/api/contact-submissions/${row!.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: row!.id,
      name: 'Solo Buyer',
      solicitation: 'RFQ-1',
      buyerType: 'government',
      responseDue: '2026-12-03',
      responses: [{ message: 'On it', delivery: null }],
    });
    const etag = res.headers.get('etag')!;
    expect((await get(`/api/contact-submissions/${row!.id}`, { 'if-none-match': etag })).status).toBe(304);
    const missing = await get('/api/contact-submissions/99999999');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Contact submission not found' });
    const bad = await get('/api/contact-submissions/abc');
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBeTruthy();
  });

  it.each([
    ['GET', '/api/contact-submissions/counts'],
    ['GET', '/api/contact-submissions/1'],
    ['GET', '/api/contact-submissions?view=spam'],
  ])('%s %s: 401 signed out, 403 for a non-admin', async (method, url) => {
    const out = await t.s.request(url, { method });
    expect(out.status).toBe(401);
    expect((await out.json()).message).toBe('Authentication required');
    const user = await t.as(t.user, method, url);
    expect(user.status).toBe(403);
    expect((await user.json()).message).toBe('Administrator access required');
  });
});

describe('[LEADS][API] CSV export streams', () => {
  it('exports many rows in batches with the filter, the buyer columns and formula-like cells neutralised', async () => {
    const m = marker();
    const rows = await insert(
      Array.from({ length: 1234 }, (_, i) =>
        lead({
          name: i === 7 ? '=HYPERLINK("http://evil.example")' : `Buyer ${i}`,
          message: `${m} row ${i}`,
          isSpam: i % 10 === 0,
          status: i % 3 === 0 ? 'completed' : 'pending',
          buyerType: i % 2 === 0 ? 'government' : null,
          solicitation: i === 7 ? '+SUM(A1)' : `RFQ-${i}`,
          responseDue: i === 7 ? '2026-12-03' : null,
          createdAt: new Date(Date.UTC(2024, 0, 1) + Math.floor(i / 3) * 1000),
        }),
      ),
    );
    await t.s.db.insert(contactResponses).values({ submissionId: rows[7]!.id, message: 'Reply' });
    const res = await get(`/api/contact-submissions/export?view=inbox&q=${m}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-length')).toBeNull();
    const csv = (await res.text()).replace(/^\uFEFF/, '');
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      '"ID","Received","Received (UTC, ISO 8601)","Name","Email","Company","Phone","Status","Spam","Message","Responses","Last response","Buyer type","Solicitation","Response due","Landing page","Referrer","UTM source","UTM medium","UTM campaign"',
    );
    const inbox = rows.filter((r) => !r.isSpam);
    expect(lines.slice(1).map((l) => Number(/^"(\d+)"/.exec(l)![1]))).toEqual(
      [...inbox].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id).map((r) => r.id),
    );
    const seventh = lines.find((l) => l.startsWith(`"${rows[7]!.id}",`))!;
    expect(seventh).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(seventh).toMatch(/,"1","[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T","","'\+SUM\(A1\)","Dec 3, 2026"(?:,""){5}$/);
    expect(csv).not.toMatch(/(^|,)"[=+\-@]/m);

    const completed = (await (await get(`/api/contact-submissions/export?view=inbox&status=completed&buyerType=government&q=${m}`)).text())
      .split('\r\n')
      .filter(Boolean);
    expect(completed.length - 1).toBe(inbox.filter((r) => r.status === 'completed' && r.buyerType === 'government').length);
    const bad = await get('/api/contact-submissions/export?buyerType=agency');
    expect(bad.status).toBe(400);
  });
});

/**
 * The longest the server's thread went without a turn of its event loop while `work` ran (a
 * ticker on setImmediate notes each gap), against how long the work took. The test server runs in
 * this process, so a query on the embedded database that holds the thread shows as one long gap.
 */
async function stalls<T>(work: () => Promise<T>): Promise<{ result: T; longestMs: number; totalMs: number }> {
  let last = performance.now();
  let longest = 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const started = performance.now();
  const result = await work();
  running = false;
  return { result, longestMs: longest, totalMs: performance.now() - started };
}

describe('[SECURITY][RELIABILITY][LEADS] long searches and exports share the server with visitors', { timeout: 180_000 }, () => {
  // Two letters no other test writes, in every 9th of 9,000 rows: many windows of the walk.
  const PAIR = '§¶';
  let rows: ContactSubmission[] = [];
  let word = '';
  const newestFirst = (list: ContactSubmission[]) =>
    [...list].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id).map((r) => r.id);
  beforeAll(async () => {
    word = marker();
    rows = await insert(
      Array.from({ length: 9000 }, (_, i) =>
        lead({
          message: `${i % 9 === 0 ? `${PAIR} ` : ''}${i % 6 === 0 ? `${word} ` : ''}request number ${i} for laptops and monitors`,
          isSpam: i % 10 === 3,
          createdAt: new Date(Date.UTC(2023, 0, 1) + Math.floor(i / 2) * 1000),
        }),
      ),
    );
  }, 120_000);

  it('a search needs two characters; two letters are found window by window, newest first, with the exact count under 1,000', async () => {
    const matching = rows.filter((r) => r.message.startsWith(PAIR) && !r.isSpam);
    expect(matching.length).toBeGreaterThan(800);
    expect(matching.length).toBeLessThan(1000);
    const all = await walk(`/api/contact-submissions?view=inbox&q=${encodeURIComponent(PAIR)}&limit=200`);
    expect(all.ids).toEqual(newestFirst(matching));
    expect(new Set(all.totals)).toEqual(new Set([matching.length]));
    const csv = await (await get(`/api/contact-submissions/export?view=inbox&q=${encodeURIComponent(PAIR)}`)).text();
    const exported = csv
      .split('\r\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => Number(/^"(\d+)"/.exec(l)![1]));
    expect(exported).toEqual(newestFirst(matching));
  });

  it('past 1,000 matches the count stops and says so (X-Total-Capped); every page still comes, newest first', async () => {
    const matching = rows.filter((r) => r.message.includes(word));
    expect(matching.length).toBe(1500);
    const first = await list(`/api/contact-submissions?q=${word}&limit=200`);
    expect(first.total).toBe(1000);
    expect(first.res.headers.get('x-total-capped')).toBe('true');
    const all = await walk(`/api/contact-submissions?q=${word}&limit=200`);
    expect(all.ids).toEqual(newestFirst(matching));
    // Two letters past the cap too (counted by the walk, not the index).
    const pair = await list(`/api/contact-submissions?q=${encodeURIComponent(PAIR.slice(0, 1))}r`);
    expect(pair.res.headers.get('x-total-capped')).toBeNull();
    const common = await list(`/api/contact-submissions?q=la`);
    expect([common.total, common.res.headers.get('x-total-capped')]).toEqual([1000, 'true']);
    // Under the cap: exact, and no header.
    const one = await list(`/api/contact-submissions?q=${encodeURIComponent(`number 8999 for`)}`);
    expect([one.total, one.res.headers.get('x-total-capped')]).toEqual([1, null]);
  });

  it('a search through every row, or an export of all of them, never holds the thread for long', async () => {
    // Two letters found once, in the oldest row: every row is read.
    await t.s.db
      .update(contactSubmissions)
      .set({ message: `¤¤ ${rows[0]!.message}` })
      .where(eq(contactSubmissions.id, rows[0]!.id));
    const search = await stalls(async () => list(`/api/contact-submissions?q=${encodeURIComponent('¤¤')}`));
    expect(search.result.body.map((r) => r.id)).toEqual([rows[0]!.id]);
    const exported = await stalls(async () => (await get('/api/contact-submissions/export')).text());
    expect(exported.result.split('\r\n').filter(Boolean).length).toBeGreaterThan(9000);
    console.log(
      `longest stall: search ${search.longestMs.toFixed(0)} of ${search.totalMs.toFixed(0)} ms, export ${exported.longestMs.toFixed(0)} of ${exported.totalMs.toFixed(0)} ms`,
    );
    // The work is cut in pieces with the event loop turning between them: no piece is a large
    // share of the whole (a single query over every row was nearly all of it).
    expect(search.longestMs).toBeLessThan(search.totalMs / 3);
    expect(exported.longestMs).toBeLessThan(exported.totalMs / 3);
  });
});
