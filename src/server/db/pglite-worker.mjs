/**
 * The embedded database's own thread (decision 023). PGlite is Postgres compiled to WebAssembly:
 * every query runs its CPU on the thread that calls it. Here it runs on a worker thread, so a
 * long export, search or batch of writes no longer holds the thread that answers visitors. The
 * server talks to it through `embedded-client.ts` with these messages:
 *
 *   → { id, op: 'query', sql, params, options, tx? }   ← { id, result }   (or { id, error })
 *   → { id, op: 'exec', sql, options, tx? }            ← { id, result }   (an array of results)
 *   → { id, op: 'begin' }                              ← { id, result: tx } once BEGIN has run
 *   → { id, op: 'end', tx, commit }                    ← { id } after COMMIT or ROLLBACK
 *   → { id, op: 'dump' }                               ← { id, result: Blob } (dumpDataDir, gzip)
 *   → { id, op: 'close' }                              ← { id } after PGlite has closed
 *
 * A transaction is PGlite's own `transaction()`, held open until the server ends it: queries sent
 * with its `tx` run inside it and every other query waits, as with PGlite in the same thread.
 * Parsers are functions and cannot cross threads: a query names the type ids whose text it wants
 * as sent (`options.rawTypes`, which is how drizzle-orm's parsers treat dates and intervals).
 *
 * Plain JavaScript with no import of the project's code: the server bundle loads it by path.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** @type {{ dir?: string, load?: Uint8Array, startParams?: string[] }} */
const { dir, load, startParams } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

const asSent = (/** @type {string} */ value) => value;

/** PGlite's query options from the message's: the raw types become pass-through parsers. */
function optionsOf(/** @type {Record<string, unknown> | undefined} */ options) {
  if (!options) return undefined;
  const { rawTypes, ...rest } = options;
  if (!Array.isArray(rawTypes)) return rest;
  return { ...rest, parsers: Object.fromEntries(rawTypes.map((oid) => [oid, asSent])) };
}

/** An error as data: its message, name and the fields Postgres gives (code, detail, constraint…). */
function errorOf(/** @type {unknown} */ err) {
  if (!(err instanceof Error)) return { message: String(err) };
  /** @type {Record<string, unknown>} */
  const data = { message: err.message, name: err.name };
  for (const [key, value] of Object.entries(err)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) data[key] = value;
  }
  return data;
}

/** @type {import('@electric-sql/pglite').PGlite} */
let db;
try {
  const options = { startParams, extensions: { pg_trgm }, loadDataDir: load ? new Blob([load]) : undefined };
  db = dir ? await PGlite.create(dir, options) : await PGlite.create(options);
} catch (err) {
  port.postMessage({ id: 0, error: errorOf(err) });
  process.exit(1);
}

/** Open transactions by number: PGlite's transaction object and how to end it. */
/** @type {Map<number, { tx: import('@electric-sql/pglite').Transaction, end: (commit: boolean) => Promise<void> }>} */
const open = new Map();
let lastTx = 0;

/** Starts a transaction and answers once BEGIN has run; it stays open until `end`. */
function begin() {
  return new Promise((started, failed) => {
    const number = ++lastTx;
    const done = db
      .transaction(async (tx) => {
        /** @type {(commit: boolean) => void} */
        let finish = () => {};
        const ended = new Promise((resolve) => (finish = resolve));
        open.set(number, { tx, end: async (commit) => (finish(commit), await done) });
        started(number);
        if (!(await ended)) await tx.rollback();
      })
      .finally(() => open.delete(number));
    done.catch(failed);
  });
}

/** The client (PGlite itself, or an open transaction) a message runs on. */
function on(/** @type {number | undefined} */ tx) {
  if (tx === undefined) return db;
  const entry = open.get(tx);
  if (!entry) throw new Error('Transaction is closed');
  return entry.tx;
}

/** @param {{ op: string, sql: string, params?: unknown[], options?: Record<string, unknown>, tx?: number, commit?: boolean }} m */
async function run(m) {
  switch (m.op) {
    case 'query':
      return on(m.tx).query(m.sql, m.params, optionsOf(m.options));
    case 'exec':
      return on(m.tx).exec(m.sql, optionsOf(m.options));
    case 'begin':
      return begin();
    case 'end': {
      const entry = open.get(/** @type {number} */ (m.tx));
      if (!entry) throw new Error('Transaction is closed');
      return entry.end(m.commit === true);
    }
    case 'dump':
      return db.dumpDataDir('gzip');
    case 'close':
      await db.close();
      return undefined;
    default:
      throw new Error(`Unknown message ${m.op}`);
  }
}

port.on('message', (/** @type {{ id: number } & Parameters<typeof run>[0]} */ m) => {
  run(m).then(
    (result) => {
      port.postMessage({ id: m.id, result });
      if (m.op === 'close') port.close();
    },
    (err) => port.postMessage({ id: m.id, error: errorOf(err) }),
  );
});
port.postMessage({ id: 0, result: 'ready' });
