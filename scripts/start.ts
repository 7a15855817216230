/**
 * The server: checks the environment and the port, builds the server bundle when it is missing or
 * stale, opens the database (embedded PGlite unless DATABASE_URL), applies migrations, seeds the
 * first run, makes sure the static pages match the database, then serves everything. It prints one
 * line per phase (build, database, pages) with its time, the build's detail going to
 * DATA_DIR/logs/build.log, then the address, and last the first administrator's password when it
 * made one. `npm start` runs it compiled (scripts/start.mjs); `--build-only` stops after the build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { announceAdmin, seed, type SeedResult } from '#server/db/seed.ts';
import { closeDb, getDbHandle, whileStarting, type DbHandle } from '#server/db/client.ts';
import { type Env } from '#server/env.ts';
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
import { phase, printBuildUpToDate, shownPath } from './phases.mjs';
import { startPublisher, type StartRelease } from '#server/publish/publisher.ts';
import { startMailWorker } from '#server/mail/worker.ts';
import { startLeadJobs } from '#server/services/lead-jobs.ts';
import { startControlChannel } from '#server/web/control-channel.ts';
import { leadRecipients } from '#server/services/lead-mail.ts';
import { NO_RECIPIENT_WARNING } from '#shared/lead-delivery.ts';

/** Why the server bundle must be built, or `null` when it was built from these sources. */
async function buildReason(entry: string): Promise<string | null> {
  if (!fs.existsSync(entry)) return 'no server bundle yet';
  return (await bundleIsCurrent()) ? null : 'the sources or the lock file changed since the last build';
}

/** The build phase: the build's detail goes to DATA_DIR/logs/build.log, its line says where. */
async function build(e: Env, entry: string): Promise<void> {
  const checking = performance.now();
  const reason = await buildReason(entry);
  if (!reason) return printBuildUpToDate(checking);
  const logFile = path.join(dataDir(e.DATA_DIR), 'logs', 'build.log');
  await phase(
    'Build',
    () => buildServer({ logFile }),
    () => `server bundle built (${reason}); details in ${shownPath(logFile)}`,
    { doing: `building the server bundle (${reason}), about a minute…` },
  );
}

/** The database phase's line: which database, the migrations applied, a first administrator made. */
function databaseSummary(handle: DbHandle, seeded: SeedResult): string {
  const applied = handle.applied?.length ?? 0;
  const parts = [
    `${handle.kind}: ${handle.where}`,
    applied ? `${applied} migration${applied === 1 ? '' : 's'} applied` : 'no migration pending',
  ];
  if (seeded.admin) parts.push('first administrator created');
  return parts.join('; ');
}

/** The pages phase's line: the release served, rendered now or kept from the last start. */
function pagesSummary(release: StartRelease | undefined): string {
  if (!release) return 'no release';
  if (release.error) return `rendering failed (${release.error}); serving the previous release ${release.id}`;
  return `${release.pages} pages ${release.built ? 'rendered' : 'unchanged since the last start'} (release ${release.id})`;
}

async function main(): Promise<void> {
  const e = await preflight();
  const entry = path.join(projectRoot(), 'dist', 'server', 'entry.mjs');
  // scripts/start.mjs has just checked it (and built if needed) before loading this, compiled.
  if (process.env.START_BUILD_CHECKED !== '1') await build(e, entry);
  if (process.argv.includes('--build-only')) return;

  const { handle, seeded } = await phase(
    'Database',
    async () => {
      const handle = await getDbHandle();
      const seeded = await whileStarting(handle, () => seed(handle.db, { onlyOnce: true }));
      // Instances on one Postgres sign and encrypt with one key, whatever their DATA_DIR.
      if (handle.kind === 'postgres') await shareAuthSecret(handle.db);
      return { handle, seeded };
    },
    (r) => databaseSummary(r.handle, r.seeded),
  );
  // From here `npm run db:backup` and `db:restore` can ask this process (it owns the embedded database).
  const control = await startControlChannel(dataDir(e.DATA_DIR));

  // Serves the current release (or builds one) and runs publish jobs from here on.
  const publisher = await phase(
    'Pages',
    () => startPublisher(),
    (p) => pagesSummary(p.startRelease),
  );
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
  // Said once here, and shown in red in the back office until fixed.
  // A database that stops answering right now must not stop the start: the back office says it too.
  const delivery = await leadRecipients(handle.db).catch(() => null);
  if (delivery?.source === 'none') log.warn(NO_RECIPIENT_WARNING);
  // The address people use (SITE_URL, by default http://localhost:$PORT), and the port when it differs.
  const site = e.SITE_URL.replace(/\/+$/, '');
  const local = `http://localhost:${port}`;
  console.log(`\n  Ready: ${site}/   (sign in at ${site}/auth)${site === local ? '' : `   listening on ${local}/`}\n`);
  // Last, so that nothing the start prints pushes it out of sight.
  announceAdmin(seeded);

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
