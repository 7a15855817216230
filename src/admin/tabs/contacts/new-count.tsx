import { useQuery } from '@tanstack/react-query';
import { submissionCountsQuery } from '../../api/contact-submissions';

/** The number of new inquiries, on the Contacts tab itself, so it shows from any tab. */
export function NewInquiriesCount() {
  const { data } = useQuery(submissionCountsQuery);
  const n = data?.new ?? 0;
  if (n === 0) return null;
  return (
    <>
      <span
        aria-hidden="true"
        className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-brand-700 px-1.5 text-xs font-bold text-white"
      >
        {n}
      </span>
      <span className="sr-only"> ({n} new)</span>
    </>
  );
}
