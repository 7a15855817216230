/**
 * `npm start`: opens the database (embedded PGlite unless DATABASE_URL), applies migrations, seeds
 * the first run, makes sure the static pages match the database, then serves everything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { announceAdmin, seed } from '#server/db/seed.ts';
import { closeDb, getDbHandle } from '#server/db/client.ts';
import { env } from '#server/env.ts';
import { log } from '#server/log.ts';
import { projectRoot } from '#server/paths.ts';
import { uploadsDir } from '#server/storage/local-disk.ts';
import { createAppServer, type AstroHandler } from '#server/web/app-server.ts';
import { liveSite } from '#server/web/live-site.ts';
import { buildServer } from './build';
import { startPublisher } from '#server/publish/publisher.ts';
import { startMailWorker } from '#server/mail/worker.ts';

async function main(): Promise<void> {
  const e = env();
  const handle = await getDbHandle();
  announceAdmin(await seed(handle.db, { onlyOnce: true }));

  const entry = path.join(projectRoot(), 'dist', 'server', 'entry.mjs');
  if (!fs.existsSync(entry)) await buildServer();
  // Serves the current release (or builds one) and runs publish jobs from here on.
  const publisher = await startPublisher();
  const mailWorker = startMailWorker();

  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  const server = createAppServer({
    astro: handler,
    site: liveSite,
    trustProxy: e.TRUST_PROXY,
    // With Vercel Blob, image and document URLs point at Blob; only local files are served here.
    uploads: e.BLOB_READ_WRITE_TOKEN ? undefined : { root: uploadsDir() },
  });
  // Longer than the idle timeouts of common proxies and load balancers (60 s), so they close first.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(e.PORT, e.HOST, resolve);
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : e.PORT;
  log.info(`serving on http://localhost:${port}/`, { database: handle.kind, where: handle.where });
  console.log(`\n  Ready: http://localhost:${port}/   (sign in at http://localhost:${port}/auth)\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close();
    server.closeIdleConnections?.();
    await mailWorker.stop().catch((err: unknown) => log.error('stopping the mail worker failed', { err }));
    await publisher.stop().catch((err) => log.error('stopping the publisher failed', { err }));
    await closeDb().catch((err) => log.error('closing the database failed', { err }));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch(async (err: Error) => {
  console.error(`Error: ${err.message}`);
  await closeDb().catch(() => {});
  process.exit(1);
});
