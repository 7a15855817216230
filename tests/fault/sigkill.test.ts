/**
 * The server killed with SIGKILL twenty times while contact submissions are being written: it
 * must reopen its database every time, and every submission it acknowledged (201) must be there
 * at the end. Submissions cut off by the kill may or may not be stored; none may be half-stored.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { like } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '#server/db/client.ts';
import { contactSubmissions } from '#server/db/schema/index.ts';
import { createPostgresDatabase } from '../integration/helpers/db';
import { LIFTOFF_ONLY } from '../helpers/liftoff';

const ROUNDS = 20;
const WRITERS = 4;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fault-kill-'));
const base = process.env.DATABASE_URL;
/** With DATABASE_URL, a database of this file's own on that server (created by the test). */
let database: { url: string; drop: () => Promise<void> } | undefined;

afterAll(async () => {
  await database?.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Starts the server process; resolves with its port once it answers, or fails with its output. */
function startServer(): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const child = spawn(process.execPath, [...LIFTOFF_ONLY, 'tests/fault/helpers/contact-server.mjs'], {
    env: { ...process.env, DATA_DIR: tmp, DATABASE_URL: database?.url ?? '', LOG_LEVEL: 'warn', TRUST_PROXY: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start in 120 s:\n${out}`));
    }, 120_000);
    child.stderr!.on('data', (d) => (out += d));
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const port = /listening (\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, port: Number(port), output: () => out });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it answered:\n${out}`));
    });
  });
}

/** What the writers saw: the acknowledged markers, and the 503s (refused, so not acknowledged). */
type Tally = { acknowledged: string[]; unavailable: number };

async function writer(port: number, round: number, w: number, tally: Tally, stop: { now: boolean }) {
  for (let n = 0; !stop.now; n++) {
    const marker = `fault-${round}-${w}-${n}`;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/contact`, {
        method: 'POST',
        // One address per writer and round, as many buyers behind a proxy: together the rounds send
        // more than the contact form's hourly limit for one address.
        headers: { 'content-type': 'application/json', origin: 'http://localhost:4321', 'x-forwarded-for': `10.0.${round}.${w + 1}` },
        body: JSON.stringify({ name: 'Kill Test', email: 'buyer@agency.gov', message: `Order ${marker}`, elapsedMs: 12_000 }),
      });
      if (res.status === 201) tally.acknowledged.push(marker);
      else if (res.status === 503) {
        tally.unavailable++;
        await new Promise((r) => setTimeout(r, 100));
      } else throw new Error(`unexpected ${res.status}: ${await res.text()}`);
    } catch (err) {
      // The kill cuts connections: that request is simply not acknowledged.
      if ((err as Error).message.startsWith('unexpected')) throw err;
      return;
    }
  }
}

describe(`[FAULT] SIGKILL during contact writes (${base ? 'Postgres' : 'embedded database'})`, () => {
  it(`reopens after each of ${ROUNDS} kills and loses no acknowledged submission`, async () => {
    if (base) database = await createPostgresDatabase(base);
    const tally: Tally = { acknowledged: [], unavailable: 0 };
    const { acknowledged } = tally;
    const refusals: string[] = [];
    let reopened = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { child, port, output } = await startServer();
      if (round > 0) reopened++;
      const stop = { now: false };
      const before = acknowledged.length;
      const refusedBefore = tally.unavailable;
      let failure: unknown;
      const writers = Array.from({ length: WRITERS }, (_, w) =>
        writer(port, round, w, tally, stop).catch((err: unknown) => {
          failure ??= err;
        }),
      );
      // Kill at a random moment once writes are going through (the first request warms the route up).
      const deadline = Date.now() + 30_000;
      while (acknowledged.length === before && failure === undefined && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 10));
      }
      if (acknowledged.length === before) {
        child.kill('SIGKILL');
        stop.now = true;
        await Promise.all(writers);
        throw new Error(`round ${round}: no write acknowledged (${String(failure ?? 'in 30 s')}); the server said:\n${output()}`);
      }
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 300));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      stop.now = true;
      await Promise.all(writers);
      if (failure) throw new Error(`round ${round}: ${String(failure)}; the server said:\n${output()}`);
      if (tally.unavailable > refusedBefore) refusals.push(`round ${round}: ${tally.unavailable - refusedBefore} × 503\n${output()}`);
    }
    // A 503 is an honest refusal (not acknowledged, so not counted as lost); say why it happened.
    if (refusals.length) console.log(`503 answers while the server reopened:\n${refusals.join('\n')}`);
    expect(reopened).toBe(ROUNDS - 1);
    expect(acknowledged.length).toBeGreaterThan(ROUNDS);

    // A last open (the twentieth reopen) finds every acknowledged submission.
    const handle: DbHandle = await openDatabase(database ? { url: database.url } : { dir: path.join(tmp, 'pglite') });
    reopened++;
    try {
      const rows = await handle.db
        .select({ message: contactSubmissions.message })
        .from(contactSubmissions)
        .where(like(contactSubmissions.message, 'Order fault-%'));
      const stored = new Set(rows.map((r) => r.message.slice('Order '.length)));
      const lost = acknowledged.filter((m) => !stored.has(m));
      console.log(
        `SIGKILL: ${ROUNDS} kills, reopened ${reopened}/${ROUNDS}, ${acknowledged.length} acknowledged, ${tally.unavailable} refused (503), ${stored.size} stored, lost ${lost.length}`,
      );
      expect(lost).toEqual([]);
      // Each stored submission once.
      expect(rows.length).toBe(stored.size);
    } finally {
      await handle.close();
    }
    expect(reopened).toBe(ROUNDS);
  }, 600_000);
});
