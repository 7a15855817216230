import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { PgTableWithColumns } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client';
import { HttpError } from '../http';
import { recordAudit, type Actor } from './audit';
import { holdImagesUsed } from './image-library';

/*
 * Writes to editable rows: each runs in one transaction with its audit row, and an update based on
 * a stale `version` is refused (409) instead of overwriting another administrator's change. An
 * uploaded image a write newly uses is held in the library until it commits (`holdImagesUsed`).
 */

const STALE_MESSAGE = 'This item was changed by someone else. Reload to get the latest version.';

// Any of our content tables: each has a serial `id` and an integer `version`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type VersionedTable = PgTableWithColumns<any>;
type Row = Record<string, unknown> & { id: number; version: number };

interface WriteContext {
  actor: Actor;
  /** Audit entity name, e.g. 'insight'. */
  entity: string;
  /** 404 message. */
  notFound: string;
}

export async function createRow<R extends Row>(
  db: Db,
  table: VersionedTable,
  values: Record<string, unknown> | ((tx: Tx) => Promise<Record<string, unknown>>),
  ctx: Omit<WriteContext, 'notFound'> & { beforeWrite?: (tx: Tx) => Promise<void>; afterWrite?: (tx: Tx, row: R) => Promise<void> },
): Promise<R> {
  return db.transaction(async (tx) => {
    await ctx.beforeWrite?.(tx);
    // A function computes the values inside the transaction (from rows it locks).
    const row = typeof values === 'function' ? await values(tx) : values;
    await holdImagesUsed(tx, row);
    const [created] = (await tx.insert(table).values(row).returning()) as R[];
    await ctx.afterWrite?.(tx, created!);
    await recordAudit(tx, ctx.actor, { action: 'create', entity: ctx.entity, entityId: created!.id, after: created });
    return created!;
  });
}

/**
 * Applies `patch` to row `id`. With `patch.version` set, it must equal the stored version (else
 * 409, nothing changes). `accept` may refuse a row (404), `prepare` may rewrite the values from the
 * stored row and make other changes in the same transaction. The version is incremented.
 */
export async function updateRow<R extends Row>(
  db: Db,
  table: VersionedTable,
  id: number,
  patch: Record<string, unknown> & { version?: number },
  ctx: WriteContext & {
    accept?: (row: R) => boolean;
    prepare?: (tx: Tx, row: R, values: Record<string, unknown>) => Promise<Record<string, unknown>> | Record<string, unknown>;
    /** Runs after the write, in its transaction, with the row as written. */
    afterWrite?: (tx: Tx, row: R) => Promise<void>;
  },
): Promise<{ before: R; after: R }> {
  return db.transaction(async (tx) => {
    const [row] = (await tx.select().from(table).where(eq(table.id, id)).for('update')) as R[];
    if (!row || (ctx.accept && !ctx.accept(row))) throw new HttpError(404, ctx.notFound);
    const { version, ...rest } = patch;
    if (version !== undefined && version !== row.version) throw new HttpError(409, STALE_MESSAGE);
    const values = ctx.prepare ? await ctx.prepare(tx, row, rest) : rest;
    await holdImagesUsed(tx, values, row);
    const [after] = (await tx
      .update(table)
      .set({ ...values, version: sql`${table.version} + 1` })
      .where(eq(table.id, id))
      .returning()) as R[];
    await ctx.afterWrite?.(tx, after!);
    await recordAudit(tx, ctx.actor, { action: 'update', entity: ctx.entity, entityId: id, before: row, after });
    return { before: row, after: after! };
  });
}

export async function deleteRow<R extends Row>(
  db: Db,
  table: VersionedTable,
  id: number,
  ctx: WriteContext & { accept?: (row: R) => boolean },
): Promise<R> {
  return db.transaction(async (tx) => {
    const [row] = (await tx.select().from(table).where(eq(table.id, id)).for('update')) as R[];
    if (!row || (ctx.accept && !ctx.accept(row))) throw new HttpError(404, ctx.notFound);
    await tx.delete(table).where(eq(table.id, id));
    await recordAudit(tx, ctx.actor, { action: 'delete', entity: ctx.entity, entityId: id, before: row });
    return row;
  });
}

/**
 * One active row (in the table, or in the group `within` selects): activating one deactivates the
 * others in the same transaction, before the write, so the partial unique index never sees two.
 * Each row turned off gets its audit row; `keepId` is the row being activated.
 */
export async function deactivateOthers(
  tx: Tx,
  table: VersionedTable,
  ctx: { actor: Actor; entity: string; keepId?: number; within?: SQL },
) {
  const others = (await tx
    .update(table)
    .set({ isActive: false, version: sql`${table.version} + 1` })
    .where(and(eq(table.isActive, true), ctx.within, ctx.keepId ? ne(table.id, ctx.keepId) : undefined))
    .returning()) as Row[];
  for (const row of others) {
    await recordAudit(tx, ctx.actor, {
      action: 'update',
      entity: ctx.entity,
      entityId: row.id,
      before: { isActive: true },
      after: { isActive: false },
    });
  }
}
