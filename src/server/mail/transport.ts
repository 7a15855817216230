import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { env } from '../env';
import { dataDir } from '../paths';

interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  replyTo?: string | null;
  messageId?: string | null;
  inReplyTo?: string | null;
  /** Space-separated Message-IDs. */
  references?: string | null;
  /** The sender's display name when MAIL_FROM does not set one: the business's name. */
  fromName?: string | null;
}

/** Without MAIL_FROM: the business's own name, at the no-reply address. */
const DEFAULT_FROM = { name: 'Procurement Services', address: 'no-reply@localhost' };

export interface MailTransport {
  /** 'smtp' or 'outbox' (local .eml files). */
  readonly kind: string;
  send(message: MailMessage): Promise<{ messageId: string }>;
}

/** The outbox directory for local delivery: DATA_DIR/outbox. */
function outboxDir(): string {
  return path.join(dataDir(env().DATA_DIR), 'outbox');
}

/**
 * SMTP when SMTP_URL is set (any nodemailer URL, options in the query string), otherwise
 * a local outbox: each message is kept as a complete RFC 822 `.eml` file under DATA_DIR/outbox.
 */
/**
 * nodemailer's options for one message. Recipients are passed as address objects, so a value can
 * never be read as a list of several addresses, and every header value is encoded by nodemailer.
 */
function mailOptions(from: string | undefined, m: MailMessage) {
  return {
    from: from ?? { ...DEFAULT_FROM, name: m.fromName?.trim() || DEFAULT_FROM.name },
    to: { name: '', address: m.to },
    subject: m.subject,
    text: m.text,
    html: m.html ?? undefined,
    replyTo: m.replyTo ? { name: '', address: m.replyTo } : undefined,
    messageId: m.messageId ?? undefined,
    inReplyTo: m.inReplyTo ?? undefined,
    references: m.references ?? undefined,
  };
}

export function createMailTransport(): MailTransport {
  const e = env();
  const from = e.MAIL_FROM;
  if (e.SMTP_URL) {
    // Bounded waits (nodemailer's default is 10 minutes of silence): a send always ends well
    // within the worker's 2-minute claim, so a hung server can never make a message go out twice.
    const smtp = nodemailer.createTransport({ url: e.SMTP_URL, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 45_000 });
    return {
      kind: 'smtp',
      async send(m) {
        const info = await smtp.sendMail(mailOptions(from, m));
        return { messageId: info.messageId };
      },
    };
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(m) {
      const info = await stream.sendMail(mailOptions(from, m));
      const dir = outboxDir();
      await fs.mkdir(dir, { recursive: true });
      const base = `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 24)}`;
      // Written under a temporary name, then renamed: a reader never sees half a message.
      const tmp = path.join(dir, `.${base}.tmp`);
      await fs.writeFile(tmp, info.message as Buffer, { mode: 0o600 });
      await fs.rename(tmp, path.join(dir, `${base}.eml`));
      return { messageId: info.messageId };
    },
  };
}
