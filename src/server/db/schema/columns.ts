import { integer, timestamp } from 'drizzle-orm/pg-core';

/** created_at / updated_at; updated_at is maintained by `$onUpdate` on every drizzle update. */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/** Optimistic-concurrency version: an edit based on a stale version is refused with 409. */
export const version = {
  version: integer('version').notNull().default(1),
};
