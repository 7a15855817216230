import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { now as clockNow } from '../clock';
import { getDb, type Db } from '../db/client';
import { companyProfile, mailOutbox } from '../db/schema';
import { log } from '../log';
import { createMailTransport, type MailTransport } from './transport';

export const MAIL_MAX_ATTEMPTS = 8;
/** A claimed message not finished within this time (the instance died) is claimed again. */
const CLAIM_MS = 2 * 60_000;

/** 30 s, 1 min, 2 min … capped at 1 hour. */
export function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Claims due messages with FOR UPDATE SKIP LOCKED (so concurrent workers on several instances
 * never take the same row), sends them, and records the outcome: sent, or retried later with
 * backoff, or failed after MAIL_MAX_ATTEMPTS.
 */
export async function deliverDue(
  db: Db,
  transport: MailTransport,
  opts: { now?: Date; batch?: number } = {},
): Promise<{ sent: number; failed: number }> {
  const now = opts.now ?? clockNow();
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        or(
          and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, now)),
          and(eq(mailOutbox.status, 'sending'), lte(mailOutbox.lockedUntil, now)),
        ),
      )
      .orderBy(mailOutbox.nextAttemptAt, mailOutbox.id)
      .limit(opts.batch ?? 20)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(mailOutbox)
      .set({ status: 'sending', lockedUntil: new Date(now.getTime() + CLAIM_MS), attempts: sql`${mailOutbox.attempts} + 1` })
      .where(
        inArray(
          mailOutbox.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });

  let sent = 0;
  let failed = 0;
  const fromName = claimed.length > 0 ? await businessName(db) : null;
  // Sent in the order they were due (an update's RETURNING follows no ORDER BY on Postgres): an
  // inquiry's notification before the digest that counts it, a reply before the next one.
  claimed.sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id - b.id);
  for (const row of claimed) {
    try {
      const { messageId } = await transport.send({
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        replyTo: row.replyTo,
        messageId: row.messageId,
        inReplyTo: row.inReplyTo,
        references: row.references,
        fromName,
      });
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: clockNow(), messageId: row.messageId ?? messageId, lockedUntil: null, lastError: null })
        .where(eq(mailOutbox.id, row.id));
      sent++;
    } catch (err) {
      failed++;
      const message = String((err as Error)?.message ?? err);
      // An SMTP 5xx (no such mailbox, refused as spam, relaying denied) is the server's final word:
      // sending the same message again would only be refused again. A 4xx or a broken connection is retried.
      const code = (err as { responseCode?: unknown })?.responseCode;
      const permanent = typeof code === 'number' && code >= 500 && code < 600;
      const giveUp = permanent || row.attempts >= MAIL_MAX_ATTEMPTS;
      log.warn(
        permanent
          ? 'mail refused for good by the mail server'
          : giveUp
            ? 'mail delivery failed for good'
            : 'mail delivery failed; will retry',
        { id: row.id, attempts: row.attempts, ...(permanent ? { responseCode: code } : {}), error: message },
      );
      await db
        .update(mailOutbox)
        .set({
          status: giveUp ? 'failed' : 'pending',
          lockedUntil: null,
          lastError: (permanent ? `Refused by the mail server (${code}): ${message}` : message).slice(0, 1000),
          nextAttemptAt: new Date(now.getTime() + backoffMs(row.attempts)),
        })
        .where(eq(mailOutbox.id, row.id));
    }
  }
  return { sent, failed };
}

interface MailWorker {
  nudge(): void;
  stop(): Promise<void>;
}
/** This process's delivery loop, once started. */
let started: MailWorker | undefined;

/** Messages go out in the business's name, as replies are signed (a failed look-up only costs the name). */
async function businessName(db: Db): Promise<string | null> {
  try {
    const [row] = await db.select({ name: companyProfile.legalName }).from(companyProfile).limit(1);
    return row?.name ?? null;
  } catch {
    return null;
  }
}

/**
 * Starts this process's delivery loop (npm start): a pass every `intervalMs`, and soon after
 * each newly queued message. Idempotent.
 */
export function startMailWorker(opts: { intervalMs?: number; transport?: MailTransport } = {}): MailWorker {
  if (started) return started;
  const transport = opts.transport ?? createMailTransport();
  let running: Promise<void> | undefined;
  let again = false;
  let soon: NodeJS.Timeout | undefined;
  const pass = async () => {
    soon = undefined;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          const { sent } = await deliverDue(await getDb(), transport);
          if (sent === 20) again = true;
        } catch (err) {
          log.error('mail worker pass failed', { err });
        }
      } while (again);
    })().finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => void pass(), opts.intervalMs ?? 10_000);
  timer.unref();
  const worker: MailWorker = {
    nudge: () => {
      soon ??= setTimeout(() => void pass(), 100);
    },
    stop: async () => {
      clearInterval(timer);
      if (soon) clearTimeout(soon);
      started = undefined;
      await running;
    },
  };
  started = worker;
  worker.nudge();
  return worker;
}

/** Asks the running worker (if this process has one) for a pass soon. */
export function nudgeMailWorker(): void {
  started?.nudge();
}
