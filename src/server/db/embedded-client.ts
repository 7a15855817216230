import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { log } from '../log';
import { projectRoot } from '../paths';

/*
 * The embedded database on a thread of its own (decision 023): PGlite runs in a worker
 * (pglite-worker.mjs) and this client speaks to it. It offers what drizzle-orm's PGlite driver
 * and the backups use of PGlite (query, exec, transaction, dumpDataDir, close), so the rest of
 * the server does not know the difference; only the thread that spends the CPU changes.
 */

/** What a query or an open transaction offers (drizzle-orm calls `query`; restores use `exec`). */
interface EmbeddedQueries {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
}

export interface EmbeddedTx extends EmbeddedQueries {
  rollback(): Promise<void>;
  readonly closed: boolean;
}

interface Message {
  op: 'query' | 'exec' | 'begin' | 'end' | 'dump' | 'close';
  sql?: string;
  params?: unknown[];
  options?: Record<string, unknown>;
  tx?: number;
  commit?: boolean;
}

interface Answer {
  id: number;
  result?: unknown;
  error?: Record<string, unknown> & { message: string };
}

/** The worker's file: next to this module in the sources, and in the project's sources for the bundle. */
function workerFile(): string {
  const beside = fileURLToPath(new URL('./pglite-worker.mjs', import.meta.url));
  return fs.existsSync(beside) ? beside : path.join(projectRoot(), 'src', 'server', 'db', 'pglite-worker.mjs');
}

/** An error from the worker, with Postgres's fields (code, detail, constraint…) as PGlite gives them. */
function errorFrom(data: Answer['error'] & object): Error {
  const { message, name, ...fields } = data;
  const err = Object.assign(new Error(message), fields);
  if (typeof name === 'string') err.name = name;
  return err;
}

/** Query options as they cross threads: parsers are functions, so only their type ids go (see the worker). */
function wire(options?: QueryOptions): Record<string, unknown> | undefined {
  if (!options) return undefined;
  const { parsers, onNotice: _onNotice, serializers: _serializers, ...rest } = options;
  return parsers ? { ...rest, rawTypes: Object.keys(parsers).map(Number) } : rest;
}

/** Where a client's database is, as `EmbeddedClient.open` takes it. */
type Where = { dir?: string; load?: Buffer; startParams?: string[] };

/** A worker with the database open in it, or the error that stopped it opening. */
async function startWorker(where: Where): Promise<Worker> {
  // A small young generation: the worker's garbage is mostly results already sent, and V8's
  // default one kept the server about 60 MB larger at rest (decision 023).
  const worker = new Worker(workerFile(), { workerData: where, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
  await new Promise<void>((resolve, reject) => {
    const early = (code: number) => reject(new Error(`The embedded database's thread stopped while opening (exit code ${code})`));
    worker.once('exit', early);
    worker.once('error', reject);
    worker.once('message', (answer: Answer) => {
      worker.off('exit', early);
      worker.off('error', reject);
      if (answer.error) reject(errorFrom(answer.error));
      else resolve();
    });
  }).catch(async (err) => {
    await worker.terminate();
    throw err;
  });
  return worker;
}

/** What a query on a thread that stopped fails with: a lost connection (the API answers 503, retried). */
const connectionClosed = (message: string, cause?: Error) => Object.assign(new Error(message), { code: 'CONNECTION_CLOSED', cause });

export class EmbeddedClient implements EmbeddedQueries {
  #worker: Worker;
  readonly #where: Where;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  #lastId = 0;
  #stopped: Error | undefined;
  /** Counts the threads this client started: a transaction belongs to the one it began on. */
  #thread = 0;
  /** A new thread being started after the last one stopped. */
  #restarting: Promise<void> | undefined;
  #closing = false;

  private constructor(worker: Worker, where: Where) {
    this.#worker = worker;
    this.#where = where;
    this.#attach(worker);
  }

  /**
   * Starts the worker and opens the database in it: on disk in `dir`, or in memory (empty, or
   * loaded from a `dumpDataDir` archive).
   */
  static async open(where: Where): Promise<EmbeddedClient> {
    return new EmbeddedClient(await startWorker(where), where);
  }

  #attach(worker: Worker): void {
    const thread = ++this.#thread;
    worker.on('message', (answer: Answer) => this.#answer(answer));
    worker.on('error', (err) => this.#stop(thread, err));
    worker.on('exit', (code) => this.#stop(thread, new Error(`The embedded database's thread stopped (exit code ${code})`)));
    // Like PGlite in the same thread, an idle database does not keep the process alive.
    worker.unref();
  }

  #answer(answer: Answer): void {
    const waiting = this.#pending.get(answer.id);
    if (!waiting) return;
    this.#pending.delete(answer.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (answer.error) waiting.reject(errorFrom(answer.error));
    else waiting.resolve(answer.result);
  }

  /**
   * The thread stopped. What it was asked fails as a lost connection does, and a database on disk
   * is opened again in a new thread, which the next queries wait for: a thread that dies (an abort
   * in PGlite, memory) does not leave the server without its database until someone restarts it.
   * A database in memory is gone with its thread.
   */
  #stop(thread: number, cause: Error): void {
    if (thread !== this.#thread || this.#stopped) return;
    const err = connectionClosed(cause.message, cause);
    this.#stopped = err;
    if (this.#pending.size > 0 || !this.#closing) log.error('the embedded database stopped', { err: cause });
    for (const waiting of this.#pending.values()) waiting.reject(err);
    this.#pending.clear();
    if (this.#closing || !this.#where.dir) return;
    this.#restarting = startWorker(this.#where).then(
      (worker) => {
        this.#restarting = undefined;
        if (this.#closing) return void worker.terminate();
        this.#worker = worker;
        this.#attach(worker);
        this.#stopped = undefined;
        log.info('the embedded database is open again in a new thread', { dir: this.#where.dir });
      },
      (reopen: Error) => {
        this.#restarting = undefined;
        log.error('the embedded database could not be opened again', { err: reopen });
      },
    );
  }

  /** Sends `message` to the thread (`thread`: the one a transaction began on, which it must still be). */
  async #call<T>(message: Message, thread?: number): Promise<T> {
    if (this.#restarting && thread === undefined) await this.#restarting;
    if (this.#stopped) throw this.#stopped;
    if (thread !== undefined && thread !== this.#thread) throw connectionClosed('The transaction’s thread stopped');
    const id = ++this.#lastId;
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ id, ...message });
    });
  }

  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#call({ op: 'query', sql, params, options: wire(options) });
  }

  exec(sql: string, options?: QueryOptions): Promise<Results[]> {
    return this.#call({ op: 'exec', sql, options: wire(options) });
  }

  /**
   * Runs `work` in a transaction, as PGlite's `transaction` does: committed when it returns,
   * rolled back when it throws or calls `rollback`; other queries wait until it ends.
   */
  async transaction<T>(work: (tx: EmbeddedTx) => Promise<T>): Promise<T> {
    const tx = await this.#call<number>({ op: 'begin' });
    const thread = this.#thread;
    let closed = false;
    const end = (commit: boolean) => {
      closed = true;
      return this.#call<void>({ op: 'end', tx, commit }, thread);
    };
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const client: EmbeddedTx = {
      query: async (sql, params, options) => (open(), this.#call({ op: 'query', sql, params, options: wire(options), tx }, thread)),
      exec: async (sql, options) => (open(), this.#call({ op: 'exec', sql, options: wire(options), tx }, thread)),
      rollback: async () => (open(), end(false)),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await work(client);
    } catch (err) {
      if (!closed) await end(false).catch(() => {});
      throw err;
    }
    if (!closed) await end(true);
    return result;
  }

  /** Stops the database's thread as a crash would (tests: what the server does when it dies). */
  crashThread(): Promise<number> {
    return this.#worker.terminate();
  }

  /** PGlite's dump of its data directory (a gzipped tar). */
  dumpDataDir(): Promise<Blob> {
    return this.#call({ op: 'dump' });
  }

  async close(): Promise<void> {
    this.#closing = true;
    await this.#restarting;
    if (this.#stopped) return;
    try {
      await this.#call({ op: 'close' });
    } finally {
      await this.#worker.terminate();
    }
  }
}
