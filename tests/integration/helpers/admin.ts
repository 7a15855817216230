import fs from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import type { Publisher } from '#server/publish/publisher.ts';
import { createUser } from '#server/services/users.ts';
import { TEST_ADMIN, signIn, startTestServer, type TestServer } from './server';
import { bundleApi } from '../../helpers/bundle';

export interface AdminTestContext {
  s: TestServer;
  /** Cookie of the seeded administrator. */
  admin: string;
  /** Cookie of a signed-in account with role `user`. */
  user: string;
  /** A request as the administrator. */
  as(cookie: string, method: string, path: string, json?: unknown): Promise<Response>;
}

/** The built server on a clean seeded database, with an admin and a plain user signed in once. */
export async function startAdminContext(opts: Parameters<typeof startTestServer>[0] = {}): Promise<AdminTestContext> {
  const s = await startTestServer(opts);
  await createUser(s.db, { username: 'plainuser', email: 'plain@example.com', password: 'plain-user-pw', role: 'user' });
  const admin = await signIn(s, TEST_ADMIN.username, TEST_ADMIN.password);
  const user = await signIn(s, 'plainuser', 'plain-user-pw');
  return {
    s,
    admin,
    user,
    as: (cookie, method, path, json) => s.request(path, { method, cookie, ...(json !== undefined ? { json } : {}) }),
  };
}

/**
 * For a file or describe block whose server serves what the publisher publishes: an admin context
 * (filled in before its tests run) on a releases directory of its own, with a publisher that
 * publishes 100 ms after a change; both stopped and the releases removed afterwards.
 */
export function publishingAdminContext(name = 'publish'): AdminTestContext {
  const releases = `.releases-test-${process.pid}-${name}`;
  process.env.RELEASES_DIR = releases;
  const t = {} as AdminTestContext;
  let publisher: Publisher | undefined;
  beforeAll(async () => {
    Object.assign(t, await startAdminContext());
    publisher = await bundleApi.startPublisher({ store: t.s.store, debounceMs: 100, pollMs: 0 });
  }, 600_000);
  afterAll(async () => {
    await publisher?.stop();
    await t.s?.close();
    fs.rmSync(releases, { recursive: true, force: true });
  });
  return t;
}
