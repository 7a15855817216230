import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setDbHandle, type Db, type DbHandle } from '#server/db/client.ts';
import { seed } from '#server/db/seed.ts';
import { createAppServer, type AppServerOptions, type AstroHandler } from '#server/web/app-server.ts';
import { createPublicApiCache, type AnswerAnonymously } from '#server/web/public-api-cache.ts';
import type { StaticMap } from '#server/web/static-site.ts';
import { openTestDatabase } from './db';

/** The first admin the seed creates in integration tests (vitest.config.ts env). */
export const TEST_ADMIN = { username: 'admin', email: 'admin@example.com', password: 'integration-admin-pw' };

export interface TestServer {
  url: string;
  db: Db;
  handle: DbHandle;
  /** fetch against the server; JSON bodies get the JSON content type and a same-origin Origin. */
  request(pathname: string, init?: RequestInit & { json?: unknown; cookie?: string }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The real server (the built Astro endpoints behind our HTTP layer) on a clean database, on a
 * random port. Needs `npm run build` first (npm test does it).
 */
export async function startTestServer(
  opts: {
    seed?: boolean;
    site?: () => StaticMap;
    uploads?: AppServerOptions['uploads'];
    trustProxy?: boolean;
    /** Another database than the clean one of openTestDatabase (an embedded one on disk). */
    database?: () => Promise<DbHandle>;
    /** Keep visitors' answers of the public endpoints as `npm start` does (default true). */
    publicApiCache?: boolean;
  } = {},
): Promise<TestServer> {
  const entry = path.resolve('dist/server/entry.mjs');
  if (!fs.existsSync(entry)) throw new Error('dist/server/entry.mjs is missing: run `npm run build` first');
  const handle = await (opts.database ?? openTestDatabase)();
  setDbHandle(handle);
  if (opts.seed !== false) await seed(handle.db);
  const { handler, answerAnonymously } = (await import(pathToFileURL(entry).href)) as {
    handler: AstroHandler;
    answerAnonymously: AnswerAnonymously;
  };
  const server = createAppServer({
    astro: handler,
    publicApi: opts.publicApiCache === false ? undefined : createPublicApiCache(answerAnonymously),
    site: opts.site ?? (() => new Map()),
    uploads: opts.uploads,
    trustProxy: opts.trustProxy,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    db: handle.db,
    handle,
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
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      setDbHandle(undefined);
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
