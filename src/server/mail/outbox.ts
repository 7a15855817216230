import type { Db, Tx } from '../db/client';
import { mailOutbox } from '../db/schema';
import { nudgeMailWorker } from './worker';

export interface OutgoingMail {
  /** What the message is for (e.g. 'auth.login-code'); kept for the operator's view of the outbox. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  submissionId?: number;
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
    })
    .returning({ id: mailOutbox.id });
  nudgeMailWorker();
  return row!.id;
}
