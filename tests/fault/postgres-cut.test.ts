/**
 * Postgres made unreachable under load, then back: while it is gone every contact submission is
 * answered 503 with Retry-After (never a 500, never a hang), and once it is back the same
 * server, not restarted, stores submissions again. Every acknowledged submission is stored.
 * The cut is a TCP proxy between the server and Postgres that drops every connection and
 * refuses new ones. Postgres only: the embedded database lives inside the process.
 */
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/client.ts';
import { createPostgresDatabase } from '../integration/helpers/db';
import { startTestServer, type TestServer } from '../integration/helpers/server';
import { pgProxy } from './helpers/pg-proxy';

const base = process.env.DATABASE_URL;
const CUT_MS = 5_000;
const WRITERS = 4;

let server: TestServer | undefined;
let database: { url: string; drop: () => Promise<void> } | undefined;
afterAll(async () => {
  await server?.close().catch(() => {});
  await database?.drop();
});

type Outcome = { status: number; ms: number; marker: string; retryAfter: string | null; body: string };

describe.skipIf(!base)('[FAULT] Postgres cut off under load, then back', () => {
  it('answers 503 while it is gone and stores again once it is back, without a restart', async () => {
    database = await createPostgresDatabase(base!);
    const direct = new URL(database.url);
    const proxy = pgProxy(direct);
    const proxied = Object.assign(new URL(direct), { hostname: '127.0.0.1', port: String(await proxy.start()) });
    server = await startTestServer({ database: () => openDatabase({ url: proxied.toString() }), trustProxy: true });

    const phase = { now: 'before' as 'before' | 'cut' | 'after', stop: false };
    const outcomes: Record<'before' | 'cut' | 'after', Outcome[]> = { before: [], cut: [], after: [] };
    const acknowledged: string[] = [];
    const writer = async (w: number) => {
      for (let n = 0; !phase.stop; n++) {
        const at = phase.now;
        const marker = `cut-${at}-${w}-${n}`;
        const started = Date.now();
        const res = await server!.request('/api/contact', {
          method: 'POST',
          headers: { 'x-forwarded-for': `10.1.${w}.${n % 250}` },
          json: { name: 'Cut Test', email: 'buyer@agency.gov', message: `Order ${marker}`, elapsedMs: 12_000 },
        });
        const outcome = {
          status: res.status,
          ms: Date.now() - started,
          marker,
          retryAfter: res.headers.get('retry-after'),
          body: await res.text(),
        };
        if (res.status === 201) acknowledged.push(marker);
        // A request that began before the cut and ended after it belongs to neither clean phase.
        if (phase.now === at) outcomes[at].push(outcome);
        if (res.status !== 201) await new Promise((r) => setTimeout(r, 100));
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    // Cut once writes go through (the first requests warm the route up).
    const warmBy = Date.now() + 20_000;
    while (outcomes.before.filter((o) => o.status === 201).length < 8 && Date.now() < warmBy) await sleep(50);
    await proxy.cut();
    phase.now = 'cut';
    await sleep(CUT_MS);
    await proxy.restore();
    phase.now = 'after';
    // Back within a few seconds: the pool opens new connections on its own.
    const backBy = Date.now() + 15_000;
    while (!outcomes.after.some((o) => o.status === 201) && Date.now() < backBy) await sleep(100);
    await sleep(1_000);
    phase.stop = true;
    await Promise.all(writers);

    const statuses = (list: Outcome[]) => [...new Set(list.map((o) => o.status))].sort();
    console.log(
      `Postgres cut: before ${outcomes.before.length} answers ${statuses(outcomes.before)}, ` +
        `cut ${outcomes.cut.length} answers ${statuses(outcomes.cut)} (slowest ${Math.max(...outcomes.cut.map((o) => o.ms))} ms), ` +
        `after ${outcomes.after.length} answers ${statuses(outcomes.after)}`,
    );
    expect(statuses(outcomes.before)).toEqual([201]);
    // While cut: only 503s with Retry-After and a plain message; no request hangs.
    expect(outcomes.cut.length).toBeGreaterThan(0);
    expect(statuses(outcomes.cut)).toEqual([503]);
    for (const o of outcomes.cut) {
      expect(o.retryAfter).toMatch(/^\d+$/);
      expect(JSON.parse(o.body)).toEqual({ message: 'The service is briefly unavailable. Please try again in a minute.' });
      expect(o.ms).toBeLessThan(5_000);
    }
    // Back: stored again, by the same server.
    expect(outcomes.after.some((o) => o.status === 201)).toBe(true);
    expect(outcomes.after.filter((o) => o.status !== 201 && o.status !== 503)).toEqual([]);

    // Every acknowledged submission is stored, once.
    const sql = postgres(direct.toString(), { max: 1, onnotice: () => {} });
    const rows = await sql<{ message: string }[]>`select message from contact_submission where message like 'Order cut-%'`;
    await sql.end();
    const stored = rows.map((r) => r.message.slice('Order '.length));
    expect(acknowledged.filter((m) => !stored.includes(m))).toEqual([]);
    expect(new Set(stored).size).toBe(stored.length);
  }, 60_000);
});
