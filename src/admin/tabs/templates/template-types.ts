/** How the Templates tab names each e-mail template type. */
export const TYPE_LABELS = { contact_notification: 'Contact notification', contact_response: 'Contact response' } as const;
