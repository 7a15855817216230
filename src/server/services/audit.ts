import { desc } from 'drizzle-orm';
import type { SessionUser } from '#shared/session.ts';
import type { Db, Tx } from '../db/client';
import { storedAddress } from '../client-ip';
import { auditLog } from '../db/schema';

/** Who is making a change: the signed-in administrator and where the request came from. */
export interface Actor {
  id: string;
  username: string;
  ip?: string;
}

export function actorOf(user: SessionUser, ip?: string): Actor {
  return { id: user.id, username: user.username, ip };
}

export type AuditAction = 'create' | 'update' | 'delete';

type Row = Record<string, unknown>;
const NOISE = new Set(['createdAt', 'updatedAt', 'version']);
const MAX_VALUE_CHARS = 300;

function shorten(value: unknown): unknown {
  if (typeof value === 'string' && value.length > MAX_VALUE_CHARS) return `${value.slice(0, MAX_VALUE_CHARS)}…`;
  if (value instanceof Date) return value.toISOString();
  return value;
}

function pick(row: Row, keys: Iterable<string>): Row {
  const out: Row = {};
  for (const key of keys) if (!NOISE.has(key)) out[key] = shorten(row[key]);
  return out;
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return String(shorten(a)) === String(shorten(b));
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A before/after summary small enough to list: a create keeps the new row, a delete the old one,
 * an update only the fields that changed. Long texts are cut to 300 characters.
 */
function summarizeChange(before: Row | null, after: Row | null): { before: Row | null; after: Row | null } {
  if (!before) return { before: null, after: after && pick(after, Object.keys(after)) };
  if (!after) return { before: pick(before, Object.keys(before)), after: null };
  const changed = Object.keys(after).filter((k) => !NOISE.has(k) && !same(before[k], after[k]));
  return { before: pick(before, changed), after: pick(after, changed) };
}

/** The fields that name a row, in order of preference (a title, a person's or a template's name…). */
const NAME_FIELDS = ['title', 'name', 'buttonText', 'fileName', 'originalName', 'shortName', 'email'];
const MAX_SUBJECT_CHARS = 120;

/** What the changed row is called, taken from the full row (an update's summary keeps only what changed). */
function subjectOf(before: Row | null, after: Row | null): string | null {
  for (const row of [after, before]) {
    for (const key of NAME_FIELDS) {
      const value = row?.[key];
      if (typeof value === 'string' && value.trim()) return value.trim().slice(0, MAX_SUBJECT_CHARS);
    }
  }
  return null;
}

/** Writes one audit row; call it inside the transaction that makes the change. */
export async function recordAudit(
  tx: Db | Tx,
  actor: Actor,
  entry: {
    action: AuditAction;
    entity: string;
    entityId: number | string;
    before?: Row | null;
    after?: Row | null;
    /** What the row is called, when its own fields do not say (a reply: the inquirer's name). */
    subject?: string;
  },
): Promise<void> {
  const summary = summarizeChange(entry.before ?? null, entry.after ?? null);
  const subject = entry.subject?.slice(0, MAX_SUBJECT_CHARS) ?? subjectOf(entry.before ?? null, entry.after ?? null);
  await tx.insert(auditLog).values({
    actorId: actor.id,
    actorName: actor.username,
    action: entry.action,
    entity: entry.entity,
    entityId: String(entry.entityId),
    subject,
    before: summary.before,
    after: summary.after,
    ipAddress: storedAddress(actor.ip),
  });
}

/** The latest changes, newest first. */
export async function listAudit(db: Db, opts: { limit?: number } = {}) {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  return db.select().from(auditLog).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit);
}
