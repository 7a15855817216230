import { useQuery } from '@tanstack/react-query';
import { Button } from '#components/ui/button.tsx';
import { errorMessage } from '#lib/api-client.ts';
import { NO_RECIPIENT_WARNING, SOURCE_LABELS, type TestInquiryDelivery } from '#shared/lead-delivery.ts';
import { leadDeliveryQuery, useSendTestInquiry } from '../../api/lead-delivery';
import { EditorCard } from '../../components/load-state';

const OUTCOME: Record<TestInquiryDelivery['outcome'], { label: string; className: string }> = {
  delivered: { label: 'Delivered', className: 'text-brand-700' },
  refused: { label: 'Refused by the mail server', className: 'text-red-800' },
  failed: { label: 'Not sent', className: 'text-red-800' },
  kept: { label: 'Not sent', className: 'text-amber-900' },
};

/**
 * Who new inquiries are e-mailed to, and "Send test inquiry": a sample notification sent now
 * through the configured mail transport, with each recipient's outcome shown here.
 */
export function TestInquiryCard() {
  const delivery = useQuery(leadDeliveryQuery);
  const send = useSendTestInquiry();
  const nobody = delivery.data?.source === 'none';

  let current;
  if (!delivery.data) current = <p className="text-sm text-muted">Checking who receives new inquiries…</p>;
  else if (nobody) current = <p className="text-sm font-semibold text-red-800">{NO_RECIPIENT_WARNING}</p>;
  else
    current = (
      <p className="text-sm">
        New inquiries are e-mailed to <strong className="break-all">{delivery.data.recipients.join(', ')}</strong> (from{' '}
        {SOURCE_LABELS[delivery.data.source]}).
      </p>
    );

  return (
    <EditorCard
      title="Inquiry E-mails"
      description="Each new inquiry from the contact form is e-mailed to these addresses. A test inquiry shows whether the mail server takes it."
      actions={
        <Button onClick={() => send.mutate()} disabled={send.isPending || nobody || !delivery.data}>
          {send.isPending ? 'Sending…' : 'Send test inquiry'}
        </Button>
      }
    >
      {current}
      <div aria-live="polite" className="mt-3 text-sm">
        {send.isError && (
          <p className="rounded-md border border-red-200 bg-red-50 p-3 text-red-800">
            Test inquiry not sent: {errorMessage(send.error, 'Unknown error')}
          </p>
        )}
        {send.data && (
          <div className="rounded-md border border-line p-3">
            <p className="font-semibold">
              Test inquiry {send.data.transport === 'smtp' ? 'sent by SMTP' : 'written to the local outbox'} to{' '}
              {send.data.deliveries.length === 1 ? '1 recipient' : `${send.data.deliveries.length} recipients`}:
            </p>
            <ul className="mt-2 space-y-1" aria-label="Test inquiry results">
              {send.data.deliveries.map((d) => (
                <li key={d.to}>
                  <span className="break-all">{d.to}</span>:{' '}
                  <span className={`font-semibold ${OUTCOME[d.outcome].className}`}>{OUTCOME[d.outcome].label}</span>
                  {d.detail && <span className="break-words">: {d.detail}</span>}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </EditorCard>
  );
}
