/**
 * Serving, as the server bundle exports it (astro-entry.ts): `main` is `npm start` once the bundle
 * is built (scripts/start.mjs imports the bundle and calls it), `serve` is the same server on a
 * database the caller gives (the integration and fault suites). Either way this bundle is the only
 * copy of the server code in the process, so its module-level singletons (the database handle,
 * the clock…) are the process's. The publishing engine is not one of them: each server is given a
 * release store of its own (publish/release-store.ts), which its publisher publishes into and its
 * HTTP layer serves.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { shareAuthSecret } from './auth/secret';
import { getSiteLaunch } from './content/public-content';
import { closeDb, getDbHandle, setDbHandle, whileStarting, type DbHandle } from './db/client';
import { announceAdmin, seed, type SeedResult } from './services/seed';
import { env } from './env';
import { log } from './log';
import { startMailWorker } from './mail/worker';
import { dataDir } from './paths';
import { preflight, siteUrlWarning } from './preflight';
import { phase } from './phases.mjs';
import { publishNow, startPublisher, type StartRelease } from './publish/publisher';
import { ReleaseStore } from './publish/release-store';
import { servableUpload } from './services/documents';
import { startLeadJobs } from './services/lead-jobs';
import { countView, flushVisits } from './services/visits';
import { leadRecipients } from './services/lead-mail';
import { uploadsDir } from './storage/local-disk';
import { NO_RECIPIENT_WARNING } from '#shared/lead-delivery.ts';
import { createAppServer, type AppServerOptions, type AstroHandler } from './web/app-server';
import { startControlChannel } from './control-channel';
import type { EngineLocals } from './publish/live-site';
import { stopWithParent } from './parent-watch';
import { createPublicApiCache, type AnswerAnonymously } from './web/public-api-cache';
import { drainAndClose } from './shutdown';

/** What the bundle's Astro side gives the HTTP layer. */
export interface AstroParts {
  handler: AstroHandler;
  answerAnonymously: AnswerAnonymously;
}

/**
 * `npm start`: checks the environment and the port, opens the database (embedded PGlite unless
 * DATABASE_URL), applies migrations, seeds the first run, makes sure the static pages match the
 * database, then serves everything until a signal (or the parent's exit) stops it.
 */
export async function main(astro: AstroParts): Promise<void> {
  try {
    await run(astro);
  } catch (err) {
    console.error(`Error: ${(err as Error).message}`);
    await closeDb().catch(() => {});
    process.exit(1);
  }
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

/** The pages phase's line: the release served, rendered now or kept from the last start, and whether search engines may index it. */
function pagesSummary(release: StartRelease | undefined, launched: boolean | undefined): string {
  const visibility =
    launched === undefined ? '' : launched ? '; launched' : '; hidden from search engines until launched (Launch site in the back office)';
  if (!release) return `no release${visibility}`;
  if (release.error) return `rendering failed (${release.error}); serving the previous release ${release.id}${visibility}`;
  return `${release.pages} pages ${release.built ? 'rendered' : 'unchanged since the last start'} (release ${release.id})${visibility}`;
}

/**
 * What every route of the server gets of its engine (publish/live-site.ts): a service that changes
 * public content calls `publish`, which is the store's publish request, which calls its publisher.
 */
function engineLocals(store: ReleaseStore): EngineLocals {
  return {
    publish: store.requestPublish,
    publishNow: (reason) => publishNow(store, reason),
    live: store.live,
    pagesServedHere: store.pagesServedHere,
  };
}

async function run(astro: AstroParts): Promise<void> {
  const e = await preflight();
  const store = new ReleaseStore();
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
  const control = await startControlChannel(dataDir(e.DATA_DIR), store.requestPublish);

  // Serves the current release (or builds one) and runs publish jobs from here on.
  const publisher = await phase(
    'Pages',
    async () => {
      const started = await startPublisher({ store });
      const launch = await getSiteLaunch(handle.db).catch(() => undefined);
      return { started, launched: launch?.launched };
    },
    (p) => pagesSummary(p.started.startRelease, p.launched),
  ).then((p) => p.started);
  const mailWorker = startMailWorker();
  // The hourly leads digest and the daily spam clean-up (once across instances).
  const leadJobs = startLeadJobs({ publish: store.requestPublish });
  await leadJobs.firstPass;

  // Postgres with a deploy hook: instances do not follow each other's publishes, so none may keep answers.
  const keepPublicAnswers = e.PUBLIC_API_CACHE && !(handle.kind === 'postgres' && e.REBUILD_WEBHOOK_URL);
  const server = createAppServer({
    astro: astro.handler,
    site: store.live.site,
    engine: engineLocals(store),
    trustProxy: e.TRUST_PROXY,
    accessLog: e.ACCESS_LOG,
    // ANALYTICS=off: no counting code runs at all.
    countView: e.ANALYTICS ? countView : undefined,
    publicApi: keepPublicAnswers ? createPublicApiCache(astro.answerAnonymously, store.live.generation) : undefined,
    // With Vercel Blob, image and document URLs point at Blob; only local files are served here.
    // An inactive or deleted document's PDF is not served (images need no database look-up).
    uploads: e.BLOB_READ_WRITE_TOKEN ? undefined : { root: uploadsDir(), guard: servableUpload },
  });
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
  const noSiteUrl = siteUrlWarning(process.env, port);
  if (noSiteUrl) log.warn(noSiteUrl);
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
      { name: 'writing the last page views', run: () => flushVisits() },
      { name: 'stopping the publisher', run: () => publisher.stop() },
      { name: 'closing the database', run: () => closeDb() },
    ]);
    log.info('stopped', { signal });
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
  stopWithParent((reason) => void stop(reason));
}

export interface ServeOptions {
  /** Installed as the process's database; without it the environment's is opened on first use. */
  database?: DbHandle;
  /** Seed the database first: every time (`true`), or only on a first run (`'once'`). */
  seed?: boolean | 'once';
  /**
   * The engine whose live release it serves and whose publish request its routes get; a new one
   * by default (nothing served until the caller starts a publisher into it, `Served.store`).
   */
  store?: ReleaseStore;
  uploads?: AppServerOptions['uploads'];
  /** Default: TRUST_PROXY (`true`: a proxy on this machine). */
  trustProxy?: AppServerOptions['trustProxy'];
  /** Keep visitors' answers of the public endpoints as `npm start` does (default true). */
  publicApiCache?: boolean;
}

export interface Served {
  server: http.Server;
  url: string;
  handle: DbHandle;
  /** The engine it serves (`ServeOptions.store`, or the one it made). */
  store: ReleaseStore;
  /** Closes the server (cutting its connections) and forgets the database; the caller closes it. */
  close(): Promise<void>;
}

/**
 * The HTTP layer and the Astro endpoints on one database, on a random port of 127.0.0.1: what the
 * test suites run, without the publisher, the mail worker or the background jobs (each suite
 * starts those it is about).
 */
export async function serve(astro: AstroParts, opts: ServeOptions = {}): Promise<Served> {
  if (opts.database) setDbHandle(opts.database);
  const handle = await getDbHandle();
  if (opts.seed) await seed(handle.db, { onlyOnce: opts.seed === 'once' });
  const store = opts.store ?? new ReleaseStore();
  const server = createAppServer({
    astro: astro.handler,
    publicApi: opts.publicApiCache === false ? undefined : createPublicApiCache(astro.answerAnonymously, store.live.generation),
    site: store.live.site,
    engine: engineLocals(store),
    countView,
    uploads: opts.uploads,
    trustProxy: opts.trustProxy ?? env().TRUST_PROXY,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    handle,
    store,
    async close() {
      await flushVisits();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      setDbHandle(undefined);
    },
  };
}
