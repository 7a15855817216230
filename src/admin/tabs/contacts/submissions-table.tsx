import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import { Select } from '#components/ui/select.tsx';
import { SUBMISSION_STATUSES, SUBMISSION_STATUS_LABELS as STATUS_LABELS, type SubmissionStatus } from '#shared/constants.ts';
import { isOverdue } from '#shared/leads.ts';
import { useSetSpam, useSetSubmissionStatus, type Submission } from '../../api/contact-submissions';
import { formatDateTime } from '../../components/load-state';
import { StackTable } from '../../components/stack-table';
import { BuyerFactsLine } from './buyer-facts-line';
import { cameFrom } from '#shared/visits.ts';
import { DeliveryBadge } from './delivery';
import { EmailAddress } from './email-address';

const isKnown = (s: string): s is SubmissionStatus => (SUBMISSION_STATUSES as readonly string[]).includes(s);

/** The submissions table: Name, Email, Company, Phone, Message (truncated), Date, Status, Actions. */
export function SubmissionsTable({
  rows,
  spamView,
  onRespond,
}: {
  rows: Submission[];
  spamView: boolean;
  onRespond: (s: Submission) => void;
}) {
  const setStatus = useSetSubmissionStatus();
  const setSpam = useSetSpam();
  const now = new Date();
  return (
    // Eight columns need about 60rem: until its box is that wide (a phone, a tablet, a narrow window) each
    // row is a card, so every row's status and Respond stay on screen and nothing scrolls sideways.
    <div className="@container/wide-table" role="region" aria-label="Contact submissions table">
      <StackTable columns={['Name', 'Email', 'Company', 'Phone', 'Message', 'Date', 'Status', 'Actions']}>
        {rows.map((s) => {
          const overdue = isOverdue(s, now);
          const last = s.responses.at(-1);
          return (
            <tr key={s.id} className={`border-b border-line align-top ${overdue ? 'bg-amber-50' : ''}`}>
              <td className="py-2 pr-3 font-medium text-ink">{s.name}</td>
              <td data-label="Email" className="py-2 pr-3">
                <a className="underline" href={`mailto:${s.email}`}>
                  <EmailAddress email={s.email} />
                </a>
              </td>
              {s.company ? (
                <td data-label="Company" className="py-2 pr-3">
                  {s.company}
                </td>
              ) : (
                <td className="py-2 pr-3 stacked:py-0" />
              )}
              {s.phone ? (
                <td data-label="Phone" className="py-2 pr-3 whitespace-nowrap">
                  {s.phone}
                </td>
              ) : (
                <td className="py-2 pr-3 stacked:py-0" />
              )}
              <td data-label="Message" className="max-w-[16rem] min-w-[11rem] py-2 pr-3 stacked:max-w-none">
                <BuyerFactsLine facts={s} />
                <p className="line-clamp-2 break-words stacked:line-clamp-3" title={s.message}>
                  {s.message}
                </p>
                {spamView && s.spamReason && <p className="mt-1 text-xs text-muted">Held as spam: {s.spamReason}</p>}
                {cameFrom(s) && <p className="mt-1 text-xs break-words text-muted">{cameFrom(s)}</p>}
              </td>
              <td data-label="Date" className="py-2 pr-3 whitespace-nowrap">
                {formatDateTime(s.createdAt)}
                {overdue && <Badge className="mt-1 block w-fit bg-amber-200 text-amber-950">Overdue</Badge>}
              </td>
              <td className="py-2 pr-3">
                <div className="flex min-w-[9rem] flex-col gap-1 stacked:max-w-xs">
                  {!isKnown(s.status) && <Badge tone="muted">Unknown</Badge>}
                  <Select
                    aria-label={`Status of ${s.name}`}
                    value={isKnown(s.status) ? s.status : ''}
                    disabled={setStatus.isPending}
                    onChange={(e) => isKnown(e.target.value) && setStatus.mutate({ id: s.id, status: e.target.value })}
                    options={[
                      ...(isKnown(s.status) ? [] : [{ value: '', label: 'Unknown' }]),
                      ...SUBMISSION_STATUSES.map((v) => ({ value: v, label: STATUS_LABELS[v] })),
                    ]}
                  />
                  {last && (
                    <span className="text-xs text-muted">
                      {s.responses.length === 1 ? '1 reply' : `${s.responses.length} replies`} <DeliveryBadge delivery={last.delivery} />
                    </span>
                  )}
                </div>
              </td>
              <td className="py-2">
                <div className="flex flex-wrap gap-2">
                  {spamView ? (
                    <Button
                      size="sm"
                      onClick={() => setSpam.mutate({ id: s.id, isSpam: false })}
                      disabled={setSpam.isPending}
                      aria-label={`Not spam: ${s.name}`}
                    >
                      Not spam
                    </Button>
                  ) : (
                    <>
                      <Button size="sm" onClick={() => onRespond(s)} aria-label={`Respond to ${s.name}`}>
                        Respond
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => setSpam.mutate({ id: s.id, isSpam: true })}
                        disabled={setSpam.isPending}
                        aria-label={`Move to Spam: ${s.name}`}
                      >
                        Spam
                      </Button>
                    </>
                  )}
                </div>
              </td>
            </tr>
          );
        })}
      </StackTable>
    </div>
  );
}
