import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attemptsOf, listJobs } from '#server/publish/jobs.ts';
import { hookSite, recordHookSite } from '#server/publish/webhook.ts';
import type { Publisher } from '#server/publish/publisher.ts';
import type { ContentKind } from '#server/content/changes.ts';
import { expectLogs } from './helpers/expected-logs';
import { signIn, startTestServer, TEST_ADMIN, type TestServer } from './helpers/server';
import { bundleApi } from '../helpers/bundle';

const { startPublisher } = bundleApi;

/** A deploy hook stand-in: answers each call with the next status of `script` (then 200). */
class Receiver {
  calls: {
    at: number;
    secret: string | undefined;
    headers: http.IncomingHttpHeaders;
    raw: string;
    body: { jobId: number; reason: string };
  }[] = [];
  script: number[] = [];
  delayMs = 0;
  private server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      this.calls.push({
        at: Date.now(),
        secret: req.headers['x-hook-secret'] as string | undefined,
        headers: req.headers,
        raw: body,
        body: JSON.parse(body),
      });
      const status = this.script.shift() ?? 200;
      setTimeout(() => res.writeHead(status).end(status === 200 ? 'ok' : 'boom'), this.delayMs);
    });
  });
  url = '';
  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let server: TestServer;
let cookie: string;
const receiver = new Receiver();
let publisher: Publisher | undefined;
const sleeps: number[] = [];

/** What a service asks for after saving row `id` of `kind`: the publish request the server gives its routes. */
const changed = (kind: ContentKind, id = 1) => server.store.requestPublish({ kind, id, action: 'updated' });

/** The publisher's clock: tests that need the debounce window held open move it by hand. */
let clock: number | undefined;

/** The hook's secret as Standard Webhooks writes one: `whsec_` and the base64 of random bytes. */
const SECRET = `whsec_${randomBytes(24).toString('base64')}`;

/** What the hook's receiver checks a call with: the reference library's verifier. */
const verify = (call: { raw: string; headers: http.IncomingHttpHeaders }, secret: Webhook = new Webhook(SECRET)) =>
  secret.verify(call.raw, call.headers as Record<string, string>);

async function start(maxAttempts = 4, hook: { secret?: string; secretHeader?: string } = { secret: SECRET }) {
  clock = undefined;
  publisher = await startPublisher({
    store: server.store,
    now: () => clock ?? Date.now(),
    webhook: { url: receiver.url, ...hook, backoffMs: 30, maxAttempts },
    debounceMs: 100,
    pollMs: 0,
    ensureRelease: false,
    sleep: (ms) => {
      sleeps.push(ms);
      return new Promise((resolve) => setTimeout(resolve, ms));
    },
  });
}

async function status() {
  const res = await server.request('/api/admin/publish/status', { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as { state: string; lastPublishedAt: string | null; lastDurationMs: number | null; lastError: string | null };
}

/** A publish while the hook fails: each failed call's warning is expected, and counted. */
async function publishThroughFailures(kind: ContentKind) {
  const failures = expectLogs('deploy hook call failed');
  try {
    await changed(kind);
    return { s: await settled(), failedCalls: failures.count('deploy hook call failed') };
  } finally {
    failures.restore();
  }
}

async function settled() {
  for (let i = 0; i < 200; i++) {
    const s = await status();
    if (s.state === 'idle' || s.state === 'failed') return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('publishing did not settle');
}

beforeAll(async () => {
  await receiver.listen();
  server = await startTestServer();
  cookie = await signIn(server, TEST_ADMIN.username, TEST_ADMIN.password);
}, 300_000);
afterEach(async () => {
  await publisher?.stop();
  publisher = undefined;
  receiver.calls = [];
  receiver.script = [];
  receiver.delayMs = 0;
  sleeps.length = 0;
});
afterAll(async () => {
  await server?.close();
  await receiver.close();
});

describe('[PUBLISH][WEBHOOK]: with REBUILD_WEBHOOK_URL the deploy hook is called instead of building', () => {
  it('[SECURITY] writes close together make one call, signed as Standard Webhooks specifies, recorded as one attempt', async () => {
    await start();
    expect(publisher!.mode).toBe('webhook');
    clock = Date.now();
    for (const kind of ['header', 'service', 'header'] as const) await changed(kind);
    // Still inside the debounce window: one job waits, nothing was called.
    await publisher!.tick();
    expect((await status()).state).toBe('queued');
    expect(receiver.calls).toHaveLength(0);
    clock += 100;
    await publisher!.tick();
    const s = await settled();
    expect(s.state).toBe('idle');
    expect(receiver.calls).toHaveLength(1);
    const [call] = receiver.calls;
    // The reference verifier accepts it; the secret itself never travels.
    expect(verify(call!)).toEqual(call!.body);
    expect(call!.headers['webhook-id']).toBe(`publish-job-${call!.body.jobId}`);
    expect(Math.abs(Number(call!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(call!.raw).not.toContain(SECRET.slice(6));
    expect(Object.values(call!.headers).join(' ')).not.toContain(SECRET.slice(6));
    // Another body, another secret or an old timestamp under the same signature: refused.
    expect(() => verify({ ...call!, raw: call!.raw.replace('header 1', 'header 9') })).toThrow(/No matching signature/);
    expect(() => verify(call!, new Webhook(`whsec_${randomBytes(24).toString('base64')}`))).toThrow(/No matching signature/);
    const old = { ...call!.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) };
    expect(() => verify({ raw: call!.raw, headers: old })).toThrow(/too old/);
    expect(call!.body.reason).toBe('header 1 updated, service 1 updated');
    const job = (await listJobs(server.db)).at(-1)!;
    expect(job).toMatchObject({ status: 'succeeded', mode: 'webhook', attempts: 1 });
    expect((await attemptsOf(server.db, job.id)).map((a) => a.statusCode)).toEqual([200]);
    expect(s.lastPublishedAt).toBe(job.finishedAt!.toISOString());
    // A delivered batch is never sent again.
    await publisher!.tick();
    expect(receiver.calls).toHaveLength(1);
  });

  it('retries with backoff while the hook answers 500, each attempt recorded, then stops at the first success', async () => {
    await start();
    receiver.script = [500, 500];
    const { s, failedCalls } = await publishThroughFailures('insight');
    expect(failedCalls).toBe(2);
    expect(s).toMatchObject({ state: 'idle', lastError: null });
    expect(receiver.calls).toHaveLength(3);
    expect(new Set(receiver.calls.map((c) => c.body.jobId)).size).toBe(1);
    // Every retry is signed again, under the same id (a receiver drops a repeat by it).
    expect(new Set(receiver.calls.map((c) => c.headers['webhook-id'])).size).toBe(1);
    for (const call of receiver.calls) expect(verify(call)).toEqual(call.body);
    expect(sleeps).toEqual([30, 60]);
    const job = (await listJobs(server.db)).at(-1)!;
    const attempts = await attemptsOf(server.db, job.id);
    expect(attempts.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, 'deploy hook answered 500'],
      [2, 500, 'deploy hook answered 500'],
      [3, 200, null],
    ]);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.calls).toHaveLength(3);
  });

  it('a hook that keeps failing reports failed with the error; the next write tries again', async () => {
    await start(3);
    receiver.script = [500, 500, 500];
    const { s: failed, failedCalls } = await publishThroughFailures('document');
    expect(failedCalls).toBe(3);
    expect(failed.state).toBe('failed');
    expect(failed.lastError).toBe('deploy hook answered 500 (after 3 attempts)');
    expect(receiver.calls).toHaveLength(3);
    // The host's rebuild failed, not this instance: /readyz says so and stays 200, so a load
    // balancer keeps the API in rotation.
    const ready = await server.request('/readyz');
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', publisher: 'hook failing' } });
    expect(ready.status).toBe(200);

    await changed('document', 2);
    expect(await settled()).toMatchObject({ state: 'idle', lastError: null });
    expect(receiver.calls).toHaveLength(4);
  });

  it('a plain text secret signs too, and REBUILD_WEBHOOK_SECRET_HEADER also sends it as it is', async () => {
    await start(4, { secret: 's3cret-text', secretHeader: 'x-hook-secret' });
    await changed('header');
    await settled();
    const [call] = receiver.calls;
    expect(verify(call!, new Webhook(new TextEncoder().encode('s3cret-text'), { format: 'raw' }))).toEqual(call!.body);
    expect(call!.secret).toBe('s3cret-text');
  });

  it('without a secret, a call carries no signature', async () => {
    await start(4, {});
    await changed('header');
    await settled();
    const [call] = receiver.calls;
    expect(call!.headers['webhook-signature']).toBeUndefined();
    expect(call!.body.reason).toBe('header 1 updated');
  });

  it('writes during a call lead to exactly one more call', async () => {
    await start();
    receiver.delayMs = 600;
    await changed('header');
    for (let i = 0; i < 100 && receiver.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await status()).state).toBe('building');
    await changed('feature');
    await changed('service');
    await settled();
    expect(receiver.calls.map((c) => c.body.reason)).toEqual(['header 1 updated', 'feature 1 updated, service 1 updated']);
  });

  it('a start with another SITE_URL than the host last built for calls the hook; one with the same does not', async () => {
    await start();
    await changed('header');
    await settled();
    expect(await hookSite(server.db)).toBe(process.env.SITE_URL);
    await publisher!.stop();
    receiver.calls = [];
    const before = process.env.SITE_URL;
    process.env.SITE_URL = 'https://www.example-moved.com';
    try {
      await start();
      for (let i = 0; i < 200 && receiver.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await settled();
      expect(receiver.calls.map((c) => c.body.reason)).toEqual(['site address changed']);
      expect(await hookSite(server.db)).toBe('https://www.example-moved.com');
      await publisher!.stop();
      await start();
      await new Promise((r) => setTimeout(r, 400));
      expect(receiver.calls).toHaveLength(1);
    } finally {
      process.env.SITE_URL = before;
      await publisher?.stop();
      // The next tests' starts: the host built for the address they run with.
      await recordHookSite(server.db, before!);
    }
  });

  it('POST /api/admin/publish publishes now; both endpoints are admin only', async () => {
    await start();
    expect((await server.request('/api/admin/publish/status')).status).toBe(401);
    expect((await server.request('/api/admin/publish', { method: 'POST' })).status).toBe(401);
    const res = await server.request('/api/admin/publish', { method: 'POST', cookie, headers: { origin: server.url } });
    expect(res.status).toBe(202);
    expect(['queued', 'building']).toContain(((await res.json()) as { state: string }).state);
    await settled();
    expect(receiver.calls.map((c) => c.body.reason)).toEqual([`manual (${TEST_ADMIN.username})`]);
    const crossSite = await server.request('/api/admin/publish', { method: 'POST', cookie, headers: { origin: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);
  });
});

// Last: its job is stamped next year, so it would be the newest for every test after it.
describe('[PUBLISH]: the footer shows the year', () => {
  it('rebuilds when the year turns, since the footer shows it', async () => {
    // The publisher's clock 300 ms before next New Year (local time).
    const newYear = new Date(new Date().getFullYear() + 1, 0, 1).getTime();
    const offset = newYear - 300 - Date.now();
    publisher = await startPublisher({
      store: server.store,
      now: () => Date.now() + offset,
      webhook: { url: receiver.url, secret: SECRET, backoffMs: 30, maxAttempts: 2 },
      debounceMs: 100,
      pollMs: 0,
      ensureRelease: false,
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.calls).toHaveLength(0);
    // The turn of the year is 300 ms away; the rebuild it asks for may wait on a busy machine.
    for (let i = 0; i < 600 && receiver.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(receiver.calls.map((c) => c.body.reason)).toEqual(['new year']);
  });
});
