import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '#server/db/client.ts';
import { headerCta, insights } from '#server/db/schema/index.ts';
import { errorResponse } from '#server/http.ts';
import { expectLogs } from './helpers/expected-logs';

/*
 * The embedded database runs on a thread of its own (decision 023): its queries do not hold the
 * thread that answers visitors, and the server sees PGlite's behaviour unchanged (errors with
 * Postgres's codes, transactions that commit or roll back whole, types as drizzle-orm reads them).
 * Always the embedded database, whatever DATABASE_URL says: this is about PGlite.
 */

let h: DbHandle;
const article = (slug: string, title: string) => ({ slug, title, excerpt: 'e', content: 'c', authorName: 'A', authorTitle: 'T' });
beforeAll(async () => {
  h = await openDatabase({});
}, 60_000);
afterAll(() => h?.close());

describe('[DB][THREAD] the embedded database on its own thread', () => {
  it('a long query leaves the serving thread free', async () => {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    // The serving thread's own work beside it: a timer that should fire every 5 ms.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    delay.enable();
    const started = performance.now();
    const [row] = await h.db
      .execute<{ n: string }>(sql`select sum(i)::text as n from generate_series(1, 3000000) as i`)
      .then((r) => ('rows' in r ? (r.rows as { n: string }[]) : (r as unknown as { n: string }[])));
    const took = performance.now() - started;
    delay.disable();
    clearInterval(timer);
    expect(row?.n).toBe('4500001500000');
    const worstMs = delay.max / 1e6;
    console.log(
      `a ${Math.round(took)} ms query; the serving thread's worst delay meanwhile ${worstMs.toFixed(1)} ms, ${ticks} timer ticks`,
    );
    // In the same thread the timer could not fire at all until the query ended (worst delay = its length).
    expect(took).toBeGreaterThan(300);
    expect(worstMs).toBeLessThan(took / 3);
    expect(ticks).toBeGreaterThan(took / 5 / 4);
  }, 60_000);

  it("errors carry Postgres's code, and a failed statement changes nothing", async () => {
    await h.db.insert(insights).values(article('thread-one', 'One'));
    const err = await h.db
      .insert(insights)
      .values(article('thread-one', 'Two'))
      .then(
        () => undefined,
        (e: unknown) => e as { code?: string; cause?: { code?: string; constraint?: string } },
      );
    expect(err?.cause?.code ?? err?.code).toBe('23505');
    const rows = await h.db.select({ title: insights.title }).from(insights).where(eq(insights.slug, 'thread-one'));
    expect(rows).toEqual([{ title: 'One' }]);
  });

  it('a transaction commits whole or rolls back whole, and other queries wait for it', async () => {
    await expect(
      h.db.transaction(async (tx) => {
        await tx.insert(insights).values(article('thread-two', 'Two'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await h.db.select().from(insights).where(eq(insights.slug, 'thread-two'))).toEqual([]);

    let inside = false;
    const outside: boolean[] = [];
    await h.db.transaction(async (tx) => {
      await tx.insert(insights).values(article('thread-three', 'Three'));
      inside = true;
      // A query from outside the transaction, sent while it is open, runs after it has committed.
      void h.db
        .select()
        .from(insights)
        .where(eq(insights.slug, 'thread-three'))
        .then((r) => outside.push(inside && r.length === 1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      // A nested transaction is a savepoint: its rollback keeps the outer work.
      await tx
        .transaction(async (inner) => {
          await inner.insert(insights).values(article('thread-four', 'Four'));
          inner.rollback();
        })
        .catch(() => {});
      expect(outside).toEqual([]);
    });
    await h.db.select().from(insights).limit(1);
    expect(outside).toEqual([true]);
    const slugs = (await h.db.select({ slug: insights.slug }).from(insights)).map((r) => r.slug);
    expect(slugs).toContain('thread-three');
    expect(slugs).not.toContain('thread-four');
  });

  it('gives values as drizzle-orm reads them: timestamps as text, JSON as objects, booleans', async () => {
    const [cta] = await h.db.insert(headerCta).values({ buttonText: 'Call', buttonLink: 'tel:+15550100' }).returning();
    expect(cta?.createdAt).toBeInstanceOf(Date);
    expect(Math.abs(Date.now() - cta!.createdAt.getTime())).toBeLessThan(60_000);
    expect(cta?.isActive).toBe(false);
    const [row] = await h.db
      .execute<{ j: unknown; b: unknown; t: unknown }>(sql`select '{"a":[1,2]}'::jsonb as j, '\\x0102'::bytea as b, now() as t`)
      .then((r) =>
        'rows' in r ? (r.rows as { j: unknown; b: unknown; t: unknown }[]) : (r as unknown as { j: unknown; b: unknown; t: unknown }[]),
      );
    expect(row?.j).toEqual({ a: [1, 2] });
    expect(row?.b).toEqual(new Uint8Array([1, 2]));
    // drizzle-orm asks for timestamps as Postgres writes them; the worker keeps them so.
    expect(row?.t).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
  });

  it('an open but idle database does not keep a process alive', async () => {
    const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-')), 'open.mts');
    fs.writeFileSync(
      script,
      `import { openDatabase } from ${JSON.stringify(pathToFileURL(path.resolve('src/server/db/client.ts')).href)};
      const h = await openDatabase({ migrate: false });
      await h.db.execute('select 1');
      console.log('opened');`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 45_000);
      child.on('exit', (c) => (clearTimeout(kill), resolve(c)));
    });
    expect(out).toContain('opened');
    expect(code).toBe(0);
  }, 60_000);

  it('a thread that dies: what it was asked fails as a lost connection (503), and the database opens again in a new thread', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thread-crash-'));
    const disk = await openDatabase({ dir: path.join(dir, 'pglite') });
    const logs = expectLogs('the embedded database stopped');
    try {
      await disk.db.insert(insights).values(article('kept-row', 'Kept'));
      // A transaction open and a long query running when the thread dies.
      let txQuery: (() => Promise<unknown>) | undefined;
      const txDone = disk.pglite!.transaction(async (tx) => {
        await tx.query('select 1');
        await new Promise<void>((resolve) => (txQuery = async () => (resolve(), tx.query('select 2'))));
      });
      await expect.poll(() => txQuery !== undefined).toBe(true);
      const running = disk.pglite!.query('select pg_sleep(5)');
      await disk.pglite!.crashThread();
      const lost = await running.then(
        () => undefined,
        (err: Error & { code?: string }) => err,
      );
      expect(lost?.code).toBe('CONNECTION_CLOSED');
      expect(errorResponse(lost, '/api/insights').status).toBe(503);
      // The transaction's later queries never reach the new thread.
      await expect(txQuery!()).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      await txDone.catch(() => undefined);
      // The next query waits for the new thread, and finds what was committed.
      const rows = await disk.db.select().from(insights).where(eq(insights.slug, 'kept-row'));
      expect(rows.map((r) => r.title)).toEqual(['Kept']);
      expect(logs.count('the embedded database stopped')).toBe(1);
    } finally {
      logs.restore();
      await disk.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
