import { Fragment } from 'react';
import { buyerTypeLabel, formatDueDate, solicitationLabel, type BuyerFacts } from '#shared/buyer-facts.ts';

/**
 * One compact line of what the buyer told us with the contact form's optional fields ("Government
 * buyer · RFQ 36C10X26Q0123 · Due Thu, Dec 3, 2026"), or nothing when they left them empty.
 */
export function BuyerFactsLine({ facts }: { facts: BuyerFacts }) {
  const parts = [
    buyerTypeLabel(facts.buyerType),
    facts.solicitation ? solicitationLabel(facts.solicitation) : null,
    facts.responseDue ? `Due ${formatDueDate(facts.responseDue, { year: true, weekday: true })}` : null,
  ].filter((p): p is string => Boolean(p));
  if (parts.length === 0) return null;
  return (
    <p className="mb-1 text-xs font-medium break-words text-ink">
      {parts.map((p, i) => (
        <Fragment key={p}>
          {i > 0 && <span aria-hidden="true"> · </span>}
          <span>{p}</span>
        </Fragment>
      ))}
    </p>
  );
}
