import { bigint, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { publishJobStatus } from './enums';

/** Small key/value facts about this installation (seeded-at marker, publish state). */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

/** One row per coalesced publish batch (a local build or a webhook call). */
export const publishJobs = pgTable(
  'publish_job',
  {
    id: serial('id').primaryKey(),
    status: publishJobStatus('status').notNull().default('queued'),
    /** 'local' or 'webhook'. */
    mode: text('mode').notNull(),
    reason: text('reason'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    releaseId: text('release_id'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    /**
     * A local job's content snapshot, recorded when it is claimed: every instance builds its own
     * release from it (follower.ts). Only the newest job keeps its snapshot; the hash stays.
     */
    contentHash: text('content_hash'),
    /** JSON text, not jsonb: jsonb reorders keys, and the hash is taken over the text. */
    content: text('content'),
  },
  (t) => [index('publish_job_status_idx').on(t.status, t.requestedAt)],
);
export type PublishJob = typeof publishJobs.$inferSelect;

/** Each webhook call made for a publish job. */
export const publishAttempts = pgTable('publish_attempt', {
  id: serial('id').primaryKey(),
  jobId: integer('job_id')
    .notNull()
    .references(() => publishJobs.id, { onDelete: 'cascade' }),
  attempt: integer('attempt').notNull(),
  statusCode: integer('status_code'),
  error: text('error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Who changed what, when, with a before/after summary. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    actorId: text('actor_id'),
    actorName: text('actor_name'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /** What the row is called ("Cloud Services", "Jane Buyer"), so the Activity list can name it after it changes or goes. */
    subject: text('subject'),
    before: jsonb('before'),
    after: jsonb('after'),
    ipAddress: text('ip_address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt)],
);
export type AuditEntry = typeof auditLog.$inferSelect;

/**
 * Each running server instance and the content it serves, refreshed every few seconds, so the
 * publish status can say how many instances are live on the newest content.
 */
export const appInstances = pgTable('app_instance', {
  id: text('id').primaryKey(),
  /** The publish job whose content this instance serves (0: built from the database at start). */
  version: integer('version').notNull().default(0),
  contentHash: text('content_hash'),
  releaseId: text('release_id'),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Change stamps: a row per set of tables whose answers the server caches, bumped (once per
 * transaction, as it commits) by triggers on those tables, so an unchanged stamp means every
 * answer computed from them is still true. 'leads': the Contacts tab (submissions, responses,
 * reply delivery, the names of who replied). Migration 0007 holds the triggers.
 */
export const changeStamps = pgTable('change_stamp', {
  name: text('name').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});
