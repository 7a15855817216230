/**
 * Who is told of a new inquiry, as the server, the back office's banner and its test inquiry
 * describe it. Browser-safe.
 */

/** CONTACT_NOTIFY_TO, the active contact e-mail, the administrators, or nobody real. */
export type LeadRecipientSource = 'configured' | 'contact' | 'administrators' | 'none';

/** GET /api/admin/lead-delivery. */
export interface LeadDelivery {
  recipients: string[];
  source: LeadRecipientSource;
}

/** The warning and its fix, word for word in the back office's banner and the server's log. */
export const NO_RECIPIENT_WARNING =
  'New inquiries are not e-mailed to anyone: set a real contact e-mail in Contacts, or CONTACT_NOTIFY_TO in the server configuration, or a real e-mail address for an administrator.';

/** How the source reads in the back office ("Inquiries are e-mailed to … (from …)"). */
export const SOURCE_LABELS: Record<LeadRecipientSource, string> = {
  configured: 'the CONTACT_NOTIFY_TO setting',
  contact: 'the active contact e-mail',
  administrators: 'the administrators’ e-mail addresses',
  none: 'nobody',
};

/** One recipient's outcome of a test inquiry. */
export interface TestInquiryDelivery {
  to: string;
  /**
   * delivered: the SMTP server accepted it; refused: the server answered with an error; failed: no
   * answer (unreachable, timed out); kept: written to the local outbox, sent to no one.
   */
  outcome: 'delivered' | 'refused' | 'failed' | 'kept';
  /** The SMTP server's refusal, the failure, or why it was only kept. */
  detail: string | null;
}

/** POST /api/admin/lead-delivery/test. */
export interface TestInquiryResult extends LeadDelivery {
  transport: 'smtp' | 'outbox';
  deliveries: TestInquiryDelivery[];
}

export const LOCAL_OUTBOX_NOTE = 'Kept in the local outbox, not sent: SMTP_URL is not set';
