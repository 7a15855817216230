import type { z } from 'zod';

/** What every editable record carries besides its fields: the version an edit must be based on. */
export interface Versioned {
  id: number;
  version: number;
  updatedAt: string;
}

/** A field as stored: a value the schema may leave out is `null` when unset. */
type Column<T> = Exclude<T, undefined> | (undefined extends T ? null : never);

/**
 * A record as the API answers it, derived from the schema its form and endpoint share: every
 * field the schema outputs, plus the id, version and timestamps storing adds. Response types are
 * never written a second time by hand.
 */
export type Stored<S extends z.ZodType> = { -readonly [K in keyof z.output<S>]-?: Column<z.output<S>[K]> } & Versioned & {
    createdAt: string;
  };
