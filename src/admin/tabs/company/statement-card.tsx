import { useQuery } from '@tanstack/react-query';
import { capabilityStatementQuery } from '../../api/documents';
import { publishStatusQuery } from '../../api/publish';
import { EditorCard } from '../../components/load-state';
import { StatementPreview } from '../../components/statement-preview';

const LINK =
  'inline-flex min-h-11 items-center rounded-md border border-navy-700 px-3 py-1 text-sm font-semibold text-navy-800 hover:bg-surface md:min-h-8';

/**
 * The capability statement the publisher writes from this tab's facts: a thumbnail of its page,
 * drawn again after each publish, with Open and Download, and whether the site offers it.
 */
export function StatementCard() {
  const status = useQuery(publishStatusQuery);
  // Asked again after each publish (what is left out follows the saves), the last answer shown
  // meanwhile: the card, and the thumbnail drawn in it, stay as they are.
  const statement = useQuery({
    ...capabilityStatementQuery,
    queryKey: [
      ...capabilityStatementQuery.queryKey,
      status.data?.lastPublishedAt ?? '',
    ] as unknown as typeof capabilityStatementQuery.queryKey,
    placeholderData: (previous) => previous,
  });
  const state = statement.data;
  if (!state) return null;
  return (
    <EditorCard
      title="Capability statement"
      description="A one-page PDF written from this tab, the services, the “Why Choose Us” cards and the contact details, made again after each save."
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <StatementPreview
          url={state.url}
          version={status.data?.lastPublishedAt ?? ''}
          label="The capability statement’s page, as a thumbnail"
        />
        <div className="min-w-0 space-y-3 text-sm">
          <p>
            {state.inUse
              ? 'The site offers this statement to visitors.'
              : 'The site offers your uploaded capability statement instead: turn on “Use generated statement” in the Documents tab to offer this one.'}
          </p>
          {state.leftOut.length > 0 && (
            <p role="status">
              {state.leftOut.join(', ')} did not fit on the one page. Shorten the services or the past-performance summaries, or mark older
              entries inactive, to choose what it shows.
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <a href={state.url} target="_blank" rel="noopener" className={LINK} aria-label="Open the capability statement (PDF, new tab)">
              Open
            </a>
            <a href={state.url} download className={LINK} aria-label="Download the capability statement">
              Download
            </a>
          </div>
        </div>
      </div>
    </EditorCard>
  );
}
