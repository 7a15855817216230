import type { Db, DbHandle } from '#server/db/client.ts';
import type { AppServerOptions } from '#server/web/app-server.ts';
import type { ReleaseStore } from '#server/publish/release-store.ts';
import { serve } from '../../helpers/bundle';
import { openTestDatabase } from './db';

/** The first admin the seed creates in integration tests (vitest.config.ts env). */
export const TEST_ADMIN = { username: 'admin', email: 'admin@example.com', password: 'integration-admin-pw' };

export interface TestServer {
  url: string;
  db: Db;
  handle: DbHandle;
  /** The engine it serves: a publisher started into it publishes what the server serves. */
  store: ReleaseStore;
  /** fetch against the server; JSON bodies get the JSON content type and a same-origin Origin. */
  request(pathname: string, init?: RequestInit & { json?: unknown; cookie?: string }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The real server (the server bundle's HTTP layer and Astro endpoints) on a clean database, on a
 * random port. Needs `npm run build` first (npm test does it).
 */
export async function startTestServer(
  opts: {
    seed?: boolean;
    uploads?: AppServerOptions['uploads'];
    /** `true`: a proxy on this machine; 'env': the TRUST_PROXY the environment names. */
    trustProxy?: boolean | 'env';
    /** Another database than the clean one of openTestDatabase (an embedded one on disk). */
    database?: () => Promise<DbHandle>;
    /** Keep visitors' answers of the public endpoints as `npm start` does (default true). */
    publicApiCache?: boolean;
  } = {},
): Promise<TestServer> {
  const handle = await (opts.database ?? openTestDatabase)();
  const served = await serve({
    database: handle,
    seed: opts.seed !== false,
    uploads: opts.uploads,
    trustProxy: opts.trustProxy === 'env' ? undefined : (opts.trustProxy ?? false),
    publicApiCache: opts.publicApiCache,
  });
  const { url } = served;
  return {
    url,
    db: handle.db,
    handle,
    store: served.store,
    request(pathname, init = {}) {
      const { json, cookie, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined) {
        headers.set('content-type', 'application/json');
        if (!headers.has('origin')) headers.set('origin', url);
      }
      if (cookie) headers.set('cookie', cookie);
      return fetch(url + pathname, {
        ...rest,
        headers,
        body: json !== undefined ? JSON.stringify(json) : rest.body,
        redirect: 'manual',
      });
    },
    async close() {
      await served.close();
      await handle.close();
    },
  };
}

/** Signs in through POST /api/login and returns the Cookie header to send afterwards. */
export async function signIn(server: TestServer, username: string, password: string): Promise<string> {
  const res = await server.request('/api/login', { method: 'POST', json: { username, password } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return cookieHeader(res);
}

export function cookieHeader(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');
}
