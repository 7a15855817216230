/**
 * The server as the fault suite runs it: the built Astro endpoints behind our HTTP layer, on the
 * database of the environment (DATA_DIR's embedded database, or DATABASE_URL), without the
 * publisher or the mail worker (nothing here is about them). It prints `listening <port>` once
 * it answers, so the suite can kill it at any moment after.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { getDbHandle } from '#server/db/client.ts';
import { seed } from '#server/db/seed.ts';
import { env } from '#server/env.ts';
import { createAppServer, type AstroHandler } from '#server/web/app-server.ts';

const handle = await getDbHandle();
await seed(handle.db, { onlyOnce: true });
const { handler } = (await import(pathToFileURL(path.resolve('dist/server/entry.mjs')).href)) as { handler: AstroHandler };
const server = createAppServer({ astro: handler, site: () => new Map(), trustProxy: env().TRUST_PROXY });
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
