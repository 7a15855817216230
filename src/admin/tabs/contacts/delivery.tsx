import type { ContactResponse } from '../../api/contact-submissions';

const TEXT = {
  pending: { label: 'Queued', className: 'bg-slate-100 text-slate-800' },
  sending: { label: 'Sending', className: 'bg-slate-100 text-slate-800' },
  sent: { label: 'Delivered', className: 'bg-brand-100 text-brand-700' },
  failed: { label: 'Not delivered', className: 'bg-red-100 text-red-800' },
} as const;

/** Where a reply's e-mail is: queued, sending, handed to the mail server, or given up on. */
export function DeliveryBadge({ delivery }: { delivery: ContactResponse['delivery'] }) {
  if (!delivery) return null;
  const retrying = delivery.status === 'pending' && delivery.attempts > 0;
  const t = TEXT[delivery.status];
  const label = retrying ? `Retrying (attempt ${delivery.attempts + 1})` : t.label;
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${t.className}`}
      title={delivery.lastError ?? undefined}
    >
      E-mail: {label}
    </span>
  );
}
