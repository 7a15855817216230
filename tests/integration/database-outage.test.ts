/**
 * A Postgres that refuses new connections (SQLSTATE 55000, `ALLOW_CONNECTIONS false`, as an
 * operator does before maintenance): every request that needs it answers 503 with Retry-After,
 * never a 500, and the outage is two log lines, one when it starts and one when it ends. Postgres
 * only (the embedded database cannot refuse connections).
 */
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLogs } from './helpers/expected-logs';
import { startTestServer, type TestServer } from './helpers/server';

const base = process.env.DATABASE_URL;
const STARTED = 'database unavailable: answering 503 until it is back';
const ENDED = 'database available again';

describe.skipIf(!base)('[SECURITY][OUTAGE] a database that refuses connections', { timeout: 120_000 }, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  }, 180_000);
  afterAll(async () => {
    await s?.close();
  });

  const inquiry = (n: number) =>
    s.request('/api/contact', {
      method: 'POST',
      json: {
        name: 'Dana Whitfield',
        email: 'dana@va.gov',
        message: `Forty rugged laptops by June, please (${n}).`,
        elapsedMs: 20_000,
        website: '',
      },
    });

  it('55000: /api/contact answers 503 with Retry-After, never 500; one log line when the outage starts, one when it ends', async () => {
    const [row] = (await s.db.execute(sql`select current_database() as name`)) as unknown as { name: string }[];
    const name = row!.name;
    const operator = postgres(base!, { max: 1, onnotice: () => {} });
    const said = expectLogs(STARTED, ENDED, 'unhandled error', 'request');
    try {
      await operator.unsafe(`alter database "${name}" allow_connections false`);
      await operator.unsafe(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await inquiry(i);
        statuses.push(res.status);
        if (res.status === 503) {
          expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
          expect(((await res.json()) as { message: string }).message).toBe(
            'The service is briefly unavailable. Please try again in a minute.',
          );
        }
      }
      expect(statuses.filter((x) => x !== 503)).toEqual([]);
      expect(said.count('unhandled error')).toBe(0);
      expect(said.count(STARTED)).toBe(1);
      // Each refused request is an info line of the access log, not a warning.
      expect(said.count('request')).toBe(0);

      await operator.unsafe(`alter database "${name}" allow_connections true`);
      await expect.poll(async () => (await inquiry(99)).status, { timeout: 30_000, interval: 500 }).toBe(201);
      expect(said.count(ENDED)).toBe(1);
      expect(said.count(STARTED)).toBe(1);
    } finally {
      said.restore();
      await operator.unsafe(`alter database "${name}" allow_connections true`).catch(() => {});
      await operator.end();
    }
  });
});
