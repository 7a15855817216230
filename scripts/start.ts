/**
 * The server: checks the environment and the port, builds the server bundle when it is missing or
 * stale, opens the database (embedded PGlite unless DATABASE_URL), applies migrations, seeds the
 * first run, makes sure the static pages match the database, then serves everything. `npm start`
 * runs it compiled (scripts/start.mjs); `--build-only` stops after the build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { announceAdmin, seed } from '#server/db/seed.ts';
import { closeDb, getDbHandle, whileStarting } from '#server/db/client.ts';
import { shareAuthSecret } from '#server/auth/secret.ts';
import { log } from '#server/log.ts';
import { dataDir, projectRoot } from '#server/paths.ts';
import { uploadsDir } from '#server/storage/local-disk.ts';
import { servableUpload } from '#server/services/documents.ts';
import { createAppServer, type AstroHandler } from '#server/web/app-server.ts';
import { createPublicApiCache, type AnswerAnonymously } from '#server/web/public-api-cache.ts';
import { liveSite } from '#server/web/live-site.ts';
import { buildServer, bundleIsCurrent } from './bundle';
import { stopWithParent } from './parent-watch';
import { drainAndClose } from './shutdown';
import { preflight } from './preflight';
import { startPublisher } from '#server/publish/publisher.ts';
import { startMailWorker } from '#server/mail/worker.ts';
import { startLeadJobs } from '#server/services/lead-jobs.ts';
import { startControlChannel } from '#server/web/control-channel.ts';
import { leadRecipients } from '#server/services/lead-mail.ts';
import { NO_RECIPIENT_WARNING } from '#shared/lead-delivery.ts';

async function main(): Promise<void> {
  const e = await preflight();
  const entry = path.join(projectRoot(), 'dist', 'server', 'entry.mjs');
  // scripts/start.mjs has just checked it (and built if needed) before loading this, compiled.
  if (process.env.START_BUILD_CHECKED !== '1') {
    if (!fs.existsSync(entry)) {
      console.log('  No server bundle yet: building it (once, about half a minute)…');
      await buildServer();
    } else if (!(await bundleIsCurrent())) {
      console.log('  The sources or the lock file changed since the last build: rebuilding the server bundle…');
      await buildServer();
    }
  }
  if (process.argv.includes('--build-only')) return;

  const handle = await getDbHandle();
  announceAdmin(await whileStarting(handle, () => seed(handle.db, { onlyOnce: true })));
  // Instances on one Postgres sign and encrypt with one key, whatever their DATA_DIR.
  if (handle.kind === 'postgres') await shareAuthSecret(handle.db);
  // From here `npm run db:backup` and `db:restore` can ask this process (it owns the embedded database).
  const control = await startControlChannel(dataDir(e.DATA_DIR));

  // Serves the current release (or builds one) and runs publish jobs from here on.
  const publisher = await startPublisher();
  const mailWorker = startMailWorker();
  // The hourly leads digest and the daily spam clean-up (once across instances).
  const leadJobs = startLeadJobs();

  const { handler, answerAnonymously } = (await import(pathToFileURL(entry).href)) as {
    handler: AstroHandler;
    answerAnonymously: AnswerAnonymously;
  };
  // Postgres with a deploy hook: instances do not follow each other's publishes, so none may keep answers.
  const keepPublicAnswers = e.PUBLIC_API_CACHE && !(handle.kind === 'postgres' && e.REBUILD_WEBHOOK_URL);
  const server = createAppServer({
    astro: handler,
    site: liveSite,
    trustProxy: e.TRUST_PROXY,
    accessLog: e.ACCESS_LOG,
    publicApi: keepPublicAnswers ? createPublicApiCache(answerAnonymously) : undefined,
    // With Vercel Blob, image and document URLs point at Blob; only local files are served here.
    // An inactive or deleted document's PDF is not served (images need no database look-up).
    uploads: e.BLOB_READ_WRITE_TOKEN ? undefined : { root: uploadsDir(), guard: servableUpload },
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
  // The address people use (SITE_URL, by default http://localhost:$PORT), and the port when it differs.
  const site = e.SITE_URL.replace(/\/+$/, '');
  const local = `http://localhost:${port}`;
  console.log(`\n  Ready: ${site}/   (sign in at ${site}/auth)${site === local ? '' : `   listening on ${local}/`}\n`);
  // Said once here, and shown in red in the back office until fixed.
  // A database that stops answering right now must not stop the start: the back office says it too.
  const delivery = await leadRecipients(handle.db).catch(() => null);
  if (delivery?.source === 'none') log.warn(NO_RECIPIENT_WARNING);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    // Requests in flight get 8 s; the whole stop is bounded at 15 s.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await drainAndClose(server, [
      { name: 'closing the backup channel', run: () => control.close() },
      { name: 'stopping the mail worker', run: () => mailWorker.stop() },
      { name: 'stopping the lead jobs', run: () => leadJobs.stop() },
      { name: 'stopping the publisher', run: () => publisher.stop() },
      { name: 'closing the database', run: () => closeDb() },
    ]);
    log.info('stopped', { signal });
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
  stopWithParent((reason) => void stop(reason));
}

main().catch(async (err: Error) => {
  console.error(`Error: ${err.message}`);
  await closeDb().catch(() => {});
  process.exit(1);
});
