import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { mailOutbox, publishJobs } from '#server/db/schema/index.ts';
import { expectLogs, type ExpectedLogs } from './helpers/expected-logs';
import { startTestServer, type TestServer } from './helpers/server';
import { resetEnvCache } from '../helpers/bundle';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 180_000);
afterAll(async () => {
  await server?.close().catch(() => {});
});

/** A 503 on purpose: its request log line (every 5xx is logged as a warning) is expected. */
function expect503Logged(): ExpectedLogs {
  const said = expectLogs('request');
  onTestFinished(() => said.restore());
  return said;
}

describe('[OPS][HEALTH] health checks for a load balancer', { timeout: 60_000 }, () => {
  it('GET /healthz: 200 while the process answers, never cached, nothing about the build', async () => {
    const res = await server.request('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz: 200 with the checks; the oldest unsent mail is reported; no versions or secrets', async () => {
    const res = await server.request('/readyz');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; checks: Record<string, unknown> };
    expect(body).toMatchObject({
      status: 'ready',
      checks: { database: 'ok', publisher: 'ok', oldestUnsentMailSeconds: null, disk: { ok: true } },
    });
    expect(JSON.stringify(body)).not.toMatch(/version|postgres:\/\/|secret|password|\d+\.\d+\.\d+/i);

    await server.db.insert(mailOutbox).values({
      kind: 'test',
      toAddress: 'owner@example.com',
      subject: 's',
      textBody: 't',
      createdAt: new Date(Date.now() - 120_000),
    });
    const later = (await (await server.request('/readyz')).json()) as { checks: { oldestUnsentMailSeconds: number } };
    expect(later.checks.oldestUnsentMailSeconds).toBeGreaterThanOrEqual(119);
  });

  it('a DATA_DIR not created yet is measured on the disk that will hold it: a number of free bytes, ready', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'readyz-'));
    const before = process.env.DATA_DIR;
    process.env.DATA_DIR = path.join(parent, 'not', 'yet');
    resetEnvCache();
    try {
      const res = await server.request('/readyz');
      const body = (await res.json()) as { checks: { disk: { freeBytes: number | null; ok: boolean } } };
      expect(body.checks.disk.ok).toBe(true);
      expect(body.checks.disk.freeBytes).toBeGreaterThan(50 * 1024 * 1024);
      expect(res.status).toBe(200);
      expect(fs.existsSync(process.env.DATA_DIR)).toBe(false);
    } finally {
      if (before === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = before;
      resetEnvCache();
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('503 once the last publish failed (the last good site still serves), 200 again after a success', async () => {
    const now = new Date();
    await server.db
      .insert(publishJobs)
      .values({ status: 'failed', mode: 'local', reason: 'test', requestedAt: now, finishedAt: now, error: 'render failed' });
    const said = expect503Logged();
    const res = await server.request('/readyz');
    expect(res.status).toBe(503);
    await expect.poll(() => said.count('request')).toBe(1);
    expect(await res.json()).toMatchObject({ status: 'unavailable', checks: { database: 'ok', publisher: 'failed' } });
    const after = new Date(now.getTime() + 1000);
    await server.db
      .insert(publishJobs)
      .values({ status: 'succeeded', mode: 'local', reason: 'test', requestedAt: after, finishedAt: after });
    expect((await server.request('/readyz')).status).toBe(200);
  });

  it('503 within about a second when the database is gone; /healthz still 200', async () => {
    await server.handle.close();
    const said = expect503Logged();
    const started = Date.now();
    const res = await server.request('/readyz');
    expect(res.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(await res.json()).toMatchObject({ status: 'unavailable', checks: { database: 'unavailable', publisher: 'unknown' } });
    expect((await server.request('/healthz')).status).toBe(200);
    await expect.poll(() => said.count('request')).toBe(1);
  });
});
