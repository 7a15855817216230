import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishStatus } from '#shared/responses.ts';
import { bundleIsCurrent } from '../../scripts/stamp.mjs';
import { freePort } from './helpers/ports';

/*
 * Three instances of the real server (`npm start`'s command) on one Postgres database, each with
 * its own DATA_DIR and RELEASES_DIR, as three machines behind a load balancer would run. A save
 * through one must reach the public pages of all three within the publish goal; a save made while
 * one is stopped reaches it when it starts again; a session made on one works on the others.
 *
 * The spread (the last instance live minus the first) is what following costs beyond the build
 * itself: at most FLEET_SPREAD_MS (1000 by default) plus a quarter of the fastest publish-to-live,
 * which on a loaded machine is mostly the build. Followers that waited for the claiming instance to
 * finish before they built would lag by a whole build and fail it. The whole publish-to-live is held to a sanity bound
 * (PUBLISH_BOUND_MS), as in publish.test.ts, since the build's own time varies with the load.
 * On a quiet 2-core machine the three start together in well under a minute.
 */
const SPREAD_MS = Number(process.env.FLEET_SPREAD_MS ?? 1000);
const BOUND_MS = Number(process.env.PUBLISH_BOUND_MS ?? 60_000);
/** How long an instance may take to start and render its pages (FLEET_START_MS). */
const START_MS = Number(process.env.FLEET_START_MS ?? 150_000);
const ADMIN = { username: 'admin', email: 'admin@example.com', password: 'fleet-admin-password-1' };
const base = process.env.DATABASE_URL;
const dbName = `fleet_${process.pid}_${randomBytes(3).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Instance {
  child: ChildProcess | undefined;
  tail = '';
  readonly url: string;
  readonly dataDir: string;
  readonly releasesDir: string;

  constructor(
    readonly name: string,
    readonly port: number,
    tmp: string,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.dataDir = path.join(tmp, name);
    // Releases must lie inside the project (astro build refuses an outDir outside it).
    this.releasesDir = `.releases-fleet-${process.pid}-${name}`;
  }

  start(): void {
    const url = new URL(base!);
    url.pathname = `/${dbName}`;
    // No AUTH_SECRET: the instances must agree on a key through the database.
    const { AUTH_SECRET: _none, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--expose-gc', 'scripts/start.mjs'], {
      env: {
        ...inherited,
        DATABASE_URL: url.toString(),
        DATA_DIR: this.dataDir,
        RELEASES_DIR: this.releasesDir,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        SITE_URL: this.url,
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.on('data', (d: Buffer) => {
        const text = d.toString();
        this.tail = (this.tail + text).slice(-4000);
      });
    }
    this.child = child;
  }

  /** Ready as a load balancer sees it (/readyz 200). */
  async ready(timeoutMs = START_MS): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (this.child?.exitCode !== null) throw new Error(`${this.name} exited: ${this.tail}`);
      const res = await fetch(`${this.url}/readyz`).catch(() => undefined);
      if (res?.status === 200) return;
      await sleep(200);
    }
    throw new Error(`${this.name} was not ready in time: ${this.tail}`);
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(force);
  }

  request(pathname: string, init: { method?: string; json?: unknown; cookie?: string } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (init.json !== undefined) Object.assign(headers, { 'content-type': 'application/json', origin: this.url });
    if (init.cookie) headers.cookie = init.cookie;
    return fetch(this.url + pathname, {
      method: init.method ?? 'GET',
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
      redirect: 'manual',
    });
  }

  async home(): Promise<string> {
    return (await this.request('/')).text();
  }
}

let tmp: string;
let fleet: Instance[] = [];

beforeAll(async () => {
  if (!base) return;
  // Three instances would each rebuild an outdated bundle at once.
  if (!(await bundleIsCurrent())) throw new Error('the server bundle is older than the sources: run `npm run build` first');
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  await admin.end();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-'));
  fleet = await Promise.all(['a', 'b', 'c'].map(async (name) => new Instance(name, await freePort(), tmp)));
  // Started together, as a deployment does: they migrate and seed one at a time.
  for (const i of fleet) i.start();
  await Promise.all(fleet.map((i) => i.ready()));
}, START_MS + 60_000);

afterAll(async () => {
  await Promise.all(fleet.map((i) => i.stop()));
  for (const i of fleet) fs.rmSync(i.releasesDir, { recursive: true, force: true });
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  if (!base) return;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
  await admin.end();
}, 60_000);

/** Milliseconds from now until every given instance serves `title` on its home page. */
async function liveOn(instances: Instance[], title: string): Promise<number[]> {
  const t0 = performance.now();
  return Promise.all(
    instances.map(async (i) => {
      for (;;) {
        if ((await i.home()).includes(title)) return Math.round(performance.now() - t0);
        if (performance.now() - t0 > BOUND_MS) throw new Error(`${i.name} never served "${title}"`);
        await sleep(10);
      }
    }),
  );
}

async function status(i: Instance, cookie: string): Promise<PublishStatus> {
  const res = await i.request('/api/admin/publish/status', { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as PublishStatus;
}

/** Waits until the status (asked of `i`) counts `n` instances, all on the newest content. */
async function fleetAgrees(i: Instance, cookie: string, n: number): Promise<PublishStatus> {
  let last: PublishStatus | undefined;
  for (const until = Date.now() + 20_000; Date.now() < until; await sleep(200)) {
    last = await status(i, cookie);
    if (last.instances.total === n && last.instances.upToDate === n && last.state === 'idle') return last;
  }
  throw new Error(`the status never showed ${n} of ${n} instances up to date: ${JSON.stringify(last)}`);
}

describe.skipIf(!base)('[FLEET] three instances on one Postgres, each with its own disk', { timeout: START_MS + 90_000 }, () => {
  let cookie: string;
  let headerId: number;
  const a = () => fleet[0]!;
  const b = () => fleet[1]!;
  const c = () => fleet[2]!;

  it('a session made on one instance is honoured by the others', async () => {
    const login = await a().request('/api/login', { method: 'POST', json: { username: ADMIN.username, password: ADMIN.password } });
    expect(login.status).toBe(200);
    cookie = login.headers
      .getSetCookie()
      .map((s) => s.split(';')[0]!)
      .join('; ');
    for (const i of fleet) {
      const me = await i.request('/api/user', { cookie });
      expect(me.status, i.name).toBe(200);
      expect(((await me.json()) as { user: { username: string } }).user.username).toBe(ADMIN.username);
    }
    expect((await c().request('/api/admin/publish/status')).status).toBe(401);
    const s = await fleetAgrees(c(), cookie, 3);
    expect(s.lastError).toBeNull();
    headerId = ((await (await b().request('/api/content/header/active')).json()) as { id: number }).id;
  });

  it('a save through one instance is live on all three within the goal', async () => {
    const title = `Fleet title ${Date.now().toString(36)}`;
    const visitorTitle = async (i: Instance) => ((await (await i.request('/api/content/header/active')).json()) as { title: string }).title;
    // Each instance keeps its visitors' answer of a public endpoint in memory from here.
    for (const i of fleet) expect(await visitorTitle(i)).not.toBe(title);
    // Signed in on a, saved through b.
    const save = await b().request(`/api/content/header/${headerId}`, { method: 'PATCH', json: { title }, cookie });
    expect(save.status).toBe(200);
    const times = await liveOn(fleet, title);
    const spread = Math.max(...times) - Math.min(...times);
    console.log(`publish-to-live per instance: ${times.join(', ')} ms; spread ${spread} ms`);
    expect(spread).toBeLessThanOrEqual(SPREAD_MS + Math.min(...times) / 4);
    // The kept answers changed with the pages, on the instances that did not take the save too.
    for (const i of fleet) expect(await visitorTitle(i), i.name).toBe(title);
    await fleetAgrees(a(), cookie, 3);
  });

  it('a save made while an instance is stopped reaches it when it starts again', async () => {
    await c().stop();
    const title = `While c was away ${Date.now().toString(36)}`;
    const save = await a().request(`/api/content/header/${headerId}`, { method: 'PATCH', json: { title }, cookie });
    expect(save.status).toBe(200);
    await liveOn([a(), b()], title);
    // A stopped instance leaves the list at once: the status counts the two that run.
    await fleetAgrees(b(), cookie, 2);
    c().start();
    await c().ready();
    expect(await c().home()).toContain(title);
    // The session made on a before the restart still works on the restarted instance.
    expect((await c().request('/api/user', { cookie })).status).toBe(200);
    await fleetAgrees(c(), cookie, 3);
  });
});
