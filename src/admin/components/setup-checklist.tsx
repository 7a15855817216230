import { useQuery } from '@tanstack/react-query';
import { CHECKLIST_GROUPS, type ChecklistGroup, type ChecklistItem } from '#shared/launch-checklist.ts';
import { companyProfileQuery, type CompanyProfile } from '../api/company-profile';
import { launchChecklistQuery, useKeepStarter } from '../api/launch';
import { requestCompanyField, requestContactField, requestRecord, type ContactField } from './contact-field-request';
import { formatDate } from './load-state';

/** Days before an expiry date the back office starts reminding. */
const EXPIRY_NOTICE_DAYS = 60;
const DAY_MS = 86_400_000;

/** Expired, or expiring within 60 days: the SAM registration (when active) and each certification. */
function expiryWarnings(profile: CompanyProfile, today = new Date()): string[] {
  const start = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  const dated = [
    ...(profile.samActive && profile.samExpiresOn ? [{ what: 'Your SAM registration', on: profile.samExpiresOn }] : []),
    ...profile.certifications.flatMap((c) => (c.expiresOn ? [{ what: c.name, on: c.expiresOn }] : [])),
  ];
  return dated.flatMap(({ what, on }) => {
    const days = Math.round((Date.parse(`${on}T00:00:00Z`) - start) / DAY_MS);
    if (Number.isNaN(days) || days > EXPIRY_NOTICE_DAYS) return [];
    const date = formatDate(`${on}T12:00:00`);
    if (days < 0) return [`${what} expired on ${date}.`];
    if (days === 0) return [`${what} expires today.`];
    return [`${what} expires on ${date} (in ${days === 1 ? '1 day' : `${days} days`}).`];
  });
}

/** Sends the administrator to where an item is fixed: its tab, with the field or record opened. */
function openItem(item: ChecklistItem): void {
  if (item.record) requestRecord(item.record);
  else if (item.field && item.tab === 'contacts') requestContactField(item.field as ContactField);
  else if (item.field && item.tab === 'company') requestCompanyField(item.field);
}

/** The identity groups open at first; the pages' starter items fold into one line per page. */
const OPEN_GROUPS = new Set<ChecklistGroup>(['Company identity', 'Contact details']);

/**
 * "Before you launch": what the public profile still lacks and every starter item still on the
 * site, grouped by public page, each linking to where it is fixed, with the count done; then
 * registrations about to expire. Nothing shows while loading or once all is done.
 */
export function SetupChecklist() {
  const checklist = useQuery(launchChecklistQuery);
  const profile = useQuery(companyProfileQuery);
  const keep = useKeepStarter();
  if (!checklist.data) return null;
  const { items, done, total } = checklist.data;
  const warnings = profile.data ? expiryWarnings(profile.data) : [];
  if (items.length === 0 && warnings.length === 0) return null;

  return (
    <section aria-labelledby="setup-checklist-title" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-ink">
      <h2 id="setup-checklist-title" className="text-base font-semibold">
        {items.length > 0 ? 'Before you launch' : 'Registrations to renew'}
      </h2>
      {items.length > 0 && (
        <>
          <p className="mt-1">
            <span className="font-semibold">
              {done} of {total} done.
            </span>{' '}
            Starter content is the example text a new site comes with: edit it to make it yours, delete it, or keep it as it is.
          </p>
          {CHECKLIST_GROUPS.map((group) => {
            const inGroup = items.filter((i) => i.group === group);
            if (inGroup.length === 0) return null;
            return (
              <details key={group} open={OPEN_GROUPS.has(group)} className="mt-2">
                <summary className="cursor-pointer py-2 font-semibold md:py-0">
                  {group} ({inGroup.length})
                </summary>
                <ul className="mt-1 space-y-1 pl-4">
                  {inGroup.map((item) => (
                    <li key={item.key}>
                      {item.text}{' '}
                      <a
                        href={`#${item.tab}`}
                        onClick={() => openItem(item)}
                        className="font-semibold text-navy-800 underline underline-offset-2"
                      >
                        {item.action}
                      </a>
                      {item.starter && (
                        <>
                          {' · '}
                          <button
                            type="button"
                            onClick={() => keep.mutate(item.key)}
                            disabled={keep.isPending}
                            className="inline-flex min-h-11 items-center font-semibold text-navy-800 underline underline-offset-2 md:min-h-0"
                          >
                            Keep as mine
                          </button>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              </details>
            );
          })}
        </>
      )}
      {warnings.length > 0 && (
        <ul className="mt-2 space-y-1" aria-label="Expiry reminders">
          {warnings.map((w) => (
            <li key={w}>
              <span aria-hidden="true">⚠ </span>
              {w}{' '}
              <a href="#company" className="font-semibold text-navy-800 underline underline-offset-2">
                Update the dates in Company
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
