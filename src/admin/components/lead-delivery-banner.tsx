import { useQuery } from '@tanstack/react-query';
import { NO_RECIPIENT_WARNING } from '#shared/lead-delivery.ts';
import { leadDeliveryQuery } from '../api/lead-delivery';
import { requestContactField } from './contact-field-request';

/**
 * A red banner on every tab while new inquiries reach no one (no real address among
 * CONTACT_NOTIFY_TO, the active contact e-mail and the administrators'), with the way to fix it.
 */
export function LeadDeliveryBanner() {
  const { data } = useQuery(leadDeliveryQuery);
  if (data?.source !== 'none') return null;
  return (
    <div role="alert" className="mb-6 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900">
      <p className="font-semibold">{NO_RECIPIENT_WARNING}</p>
      <a
        href="#contacts"
        onClick={() => requestContactField('email')}
        className="mt-2 inline-flex min-h-11 items-center font-semibold text-red-900 underline underline-offset-2 md:min-h-0"
      >
        Edit the contact e-mail
      </a>
    </div>
  );
}
