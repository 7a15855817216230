import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../db/client';
import { mailOutbox } from '../db/schema';
import { env } from '../env';
import { nudgeMailWorker } from './worker';

export interface OutgoingMail {
  /** What the message is for (e.g. 'auth.login-code'); kept for the operator's view of the outbox. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A single address: stored and sent as an address, never parsed as a list. */
  replyTo?: string;
  submissionId?: number;
  /** Preset Message-ID (see `newMessageId`); one is made when absent. */
  messageId?: string;
  /** Threading: the Message-ID answered and the chain of Message-IDs before it. */
  inReplyTo?: string;
  references?: string[];
}

/**
 * A globally unique Message-ID on the site's own domain. It is fixed when the message is queued,
 * so a retried delivery carries the same one and receiving servers can recognise a repeat.
 */
export function newMessageId(prefix = 'mail'): string {
  let host = 'localhost';
  try {
    host = new URL(env().SITE_URL).hostname || host;
  } catch {
    /* the default */
  }
  return `<${prefix}.${randomUUID()}@${host}>`;
}

/**
 * Queues a message in `mail_outbox`. Pass the transaction of the change that causes the mail, so
 * the message exists exactly when that change commits; the worker delivers it afterwards.
 */
export async function enqueueMail(db: Db | Tx, mail: OutgoingMail): Promise<number> {
  const [row] = await db
    .insert(mailOutbox)
    .values({
      kind: mail.kind,
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      replyTo: mail.replyTo,
      submissionId: mail.submissionId,
      messageId: mail.messageId ?? newMessageId(),
      inReplyTo: mail.inReplyTo,
      references: mail.references?.length ? mail.references.join(' ') : undefined,
    })
    .returning({ id: mailOutbox.id });
  nudgeMailWorker();
  return row!.id;
}
