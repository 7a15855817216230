import { renderSample } from '#shared/email/render.ts';
import { LOCAL_OUTBOX_NOTE, NO_RECIPIENT_WARNING, type TestInquiryDelivery, type TestInquiryResult } from '#shared/lead-delivery.ts';
import type { Db } from '../db/client';
import { HttpError } from '../http';
import { log } from '../log';
import { newMessageId } from '../mail/outbox';
import { createMailTransport } from '../mail/transport';
import type { Actor } from './audit';
import { activeTemplate, leadRecipients, replyContext } from './lead-mail';
import { enforce } from './rate-limit';

/** Test inquiries an administrator may send: each one mails every recipient. */
const TEST_LIMIT = { count: 5, windowMs: 10 * 60_000 };

/** What an SMTP server said when it refused a message, or why nothing reached one. */
function failureOf(err: unknown): Pick<TestInquiryDelivery, 'outcome' | 'detail'> {
  const e = err as { response?: unknown; responseCode?: unknown; message?: unknown };
  if (typeof e?.response === 'string' && typeof e.responseCode === 'number')
    return { outcome: 'refused', detail: e.response.slice(0, 500) };
  return { outcome: 'failed', detail: String(e?.message ?? err).slice(0, 500) };
}

/**
 * "Send test inquiry": a notification with sample content, rendered with the active notification
 * template and sent at once through the configured transport (not queued) to each current
 * recipient, so the administrator sees on the same screen whether the mail server took it.
 * 409 when nobody real would receive it; 429 past five in ten minutes per administrator.
 */
export async function sendTestInquiry(db: Db, actor: Actor): Promise<TestInquiryResult> {
  await enforce(
    db,
    `lead-test:${actor.id}`,
    TEST_LIMIT.count,
    TEST_LIMIT.windowMs,
    'Too many test inquiries. Please wait a few minutes and try again.',
  );
  const { recipients, source } = await leadRecipients(db);
  if (recipients.length === 0) throw new HttpError(409, NO_RECIPIENT_WARNING);
  const mail = renderSample(await activeTemplate(db, 'contact_notification'), 'contact_notification', await replyContext(db, null));
  const transport = createMailTransport();
  const deliveries = await Promise.all(
    recipients.map(async (to): Promise<TestInquiryDelivery> => {
      try {
        await transport.send({ to, subject: `[Test] ${mail.subject}`, text: mail.text, html: mail.html, messageId: newMessageId('test') });
        return transport.kind === 'smtp' ? { to, outcome: 'delivered', detail: null } : { to, outcome: 'kept', detail: LOCAL_OUTBOX_NOTE };
      } catch (err) {
        return { to, ...failureOf(err) };
      }
    }),
  );
  log.info('test inquiry sent', {
    by: actor.username,
    transport: transport.kind,
    outcomes: deliveries.map((d) => d.outcome),
  });
  return { recipients, source, transport: transport.kind === 'smtp' ? 'smtp' : 'outbox', deliveries };
}
