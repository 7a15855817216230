import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import type { EmbeddedClient } from './embedded-client';
import type * as schema from './schema';

/*
 * The types of an open database, apart from the code that opens it (client.ts): backups
 * (backup.ts) work on a handle, and client.ts backs a database up before migrating it, so the
 * dependency goes one way, client.ts → backup.ts → this file.
 */

type Schema = typeof schema;
/** Both drivers expose the same query builder; PGlite's instance is typed as this one. */
export type Db = PostgresJsDatabase<Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Human-readable location (directory or masked URL). */
  where: string;
  /** The embedded database's own client, on its thread (backups: its data directory dump and COPY). */
  pglite?: EmbeddedClient;
  /** The migrations opening it applied, in order (empty: it was up to date). */
  applied?: string[];
  close(): Promise<void>;
}
