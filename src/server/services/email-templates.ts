import { asc, desc, eq } from 'drizzle-orm';
import type { TemplateType } from '#shared/constants.ts';
import { renderSample } from '#shared/email/render.ts';
import type { EmailTemplateValues, emailTemplatePatchSchema } from '#shared/schemas/email-template.ts';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { emailTemplates, users, type EmailTemplate } from '../db/schema';
import { HttpError } from '../http';
import { enqueueMail } from '../mail/outbox';
import type { Actor } from './audit';
import { notificationRecipients, replyContext } from './lead-mail';
import { enforce } from './rate-limit';
import { createRow, deactivateOthers, deleteRow, updateRow } from './versioned';

const NOT_FOUND = 'Email template not found';

/** Every template: by type, the active one first, then the most recently changed. */
export function listEmailTemplates(db: Db) {
  return db
    .select()
    .from(emailTemplates)
    .orderBy(asc(emailTemplates.templateType), desc(emailTemplates.isActive), desc(emailTemplates.updatedAt), desc(emailTemplates.id));
}

/**
 * One active template per type, kept here rather than left to the dialog's switch: activating one
 * deactivates the others of its type (`deactivateOthers`).
 */
const activeOfType = (actor: Actor, type: TemplateType) => ({
  actor,
  entity: 'email-template',
  within: eq(emailTemplates.templateType, type),
});

export function createEmailTemplate(db: Db, input: EmailTemplateValues, actor: Actor) {
  return createRow<EmailTemplate>(db, emailTemplates, input, {
    actor,
    entity: 'email-template',
    beforeWrite: (tx) =>
      input.isActive ? deactivateOthers(tx, emailTemplates, activeOfType(actor, input.templateType)) : Promise.resolve(),
  });
}

export async function updateEmailTemplate(db: Db, id: number, patch: z.output<typeof emailTemplatePatchSchema>, actor: Actor) {
  const { after } = await updateRow<EmailTemplate>(db, emailTemplates, id, patch, {
    actor,
    entity: 'email-template',
    notFound: NOT_FOUND,
    prepare: async (tx, row, values) => {
      const type = (values.templateType as TemplateType | undefined) ?? row.templateType;
      const active = (values.isActive as boolean | undefined) ?? row.isActive;
      if (active) await deactivateOthers(tx, emailTemplates, { ...activeOfType(actor, type), keepId: id });
      return values;
    },
  });
  return after;
}

/** Deleting the active template leaves its type on the built-in default look. */
export function deleteEmailTemplate(db: Db, id: number, actor: Actor) {
  return deleteRow<EmailTemplate>(db, emailTemplates, id, { actor, entity: 'email-template', notFound: NOT_FOUND });
}

/** Test e-mails an administrator may send in an hour. */
const TESTS_PER_HOUR = 10;
const TOO_MANY_TESTS = 'At most 10 test e-mails an hour. Please try again later.';
const TEST_RECIPIENT_REFUSED = 'A test e-mail goes only to your own address or to the addresses that receive new inquiries.';

/** Queues the template, rendered with sample content (a reply signed with the administrator's own signature), to `to` or their own address. */
export async function sendTemplateTest(db: Db, template: EmailTemplateValues, actor: Actor, to?: string): Promise<{ to: string }> {
  const [me] = await db.select({ email: users.email }).from(users).where(eq(users.id, actor.id));
  const recipient = to ?? me?.email;
  if (!recipient) throw new HttpError(400, 'Please enter a valid email address');
  // Not a relay: only to the administrator's own address or to those who receive new inquiries.
  const allowed = new Set([me?.email, ...(await notificationRecipients(db))].filter(Boolean).map((a) => a!.toLowerCase()));
  if (!allowed.has(recipient.toLowerCase())) throw new HttpError(400, TEST_RECIPIENT_REFUSED);
  await enforce(db, `template-test:user:${actor.id}`, TESTS_PER_HOUR, 60 * 60_000, TOO_MANY_TESTS);
  const mail = renderSample(template, template.templateType, await replyContext(db, actor.id));
  await enqueueMail(db, { kind: 'template.test', to: recipient, ...mail, subject: `[Test] ${mail.subject}` });
  return { to: recipient };
}
