import { useQuery } from '@tanstack/react-query';
import { companyProfileQuery, type CompanyProfile } from '../api/company-profile';
import { contactInfoQuery, type ContactInfo } from '../api/contact-info';
import { capabilityStatementQuery, documentsQuery, type AdminDocument } from '../api/documents';
import { isPlaceholderAddress, isPlaceholderEmail, isPlaceholderPhone } from '#shared/placeholders.ts';
import { requestCompanyField, requestContactField, type CompanyField, type ContactField } from './contact-field-request';
import { formatDate } from './load-state';

/** Days before an expiry date the back office starts reminding. */
const EXPIRY_NOTICE_DAYS = 60;
const DAY_MS = 86_400_000;

interface Item {
  text: string;
  /** The tab where it is fixed. */
  tab: 'company' | 'documents' | 'contacts';
  action: string;
  /** The field of the active contact details the link opens, focused. */
  field?: ContactField;
  /** The company profile's field the link opens the form at, focused. */
  companyField?: CompanyField;
}

/** The active contact record's example values (seeded), which the website does not show and mail cannot reach. */
function placeholderItems(contacts: ContactInfo[]): Item[] {
  const active = contacts.find((c) => c.isActive);
  if (!active) return [];
  const found: [ContactField, string, boolean, string][] = [
    [
      'email',
      'e-mail',
      isPlaceholderEmail(active.email),
      `The contact e-mail ${active.email} is an example address: the website does not show it and inquiries are not sent to it.`,
    ],
    [
      'phone',
      'phone',
      isPlaceholderPhone(active.phone),
      `The contact phone ${active.phone} is an example number: the website does not show it.`,
    ],
    [
      'address',
      'address',
      isPlaceholderAddress(active.address),
      'The contact address is the example address: the website does not show it.',
    ],
  ];
  return found
    .filter(([, , placeholder]) => placeholder)
    .map(([field, name, , text]) => ({ text, tab: 'contacts', action: `Replace the ${name} in Contacts`, field }));
}

/** What a complete public profile still lacks (SPEC 2.15 Company tab). */
function missingItems(profile: CompanyProfile, contacts: ContactInfo[], documents: AdminDocument[], generatedInUse: boolean): Item[] {
  const items: Item[] = [];
  if (!profile.uei)
    items.push({
      text: 'Your UEI (SAM.gov Unique Entity ID) is missing.',
      tab: 'company',
      action: 'Add it in Company',
      companyField: 'uei',
    });
  if (!profile.cageCode)
    items.push({ text: 'Your CAGE code is missing.', tab: 'company', action: 'Add it in Company', companyField: 'cageCode' });
  items.push(...placeholderItems(contacts));
  const shownEmail = contacts.some((c) => c.isActive && c.displayEmail && c.email && !isPlaceholderEmail(c.email));
  if ((!profile.procurementEmail || isPlaceholderEmail(profile.procurementEmail)) && !shownEmail)
    items.push({
      text: 'No e-mail address for buyers: neither a procurement e-mail nor a displayed e-mail in the active contact details.',
      tab: 'company',
      action: 'Add a procurement e-mail in Company',
      companyField: 'procurementEmail',
    });
  // The statement written from the site's data counts: the site offers it.
  if (!generatedInUse && !documents.some((d) => d.category === 'capability' && d.isActive))
    items.push({ text: 'No active capability statement to download.', tab: 'documents', action: 'Upload one in Documents' });
  if (!profile.figuresConfirmed)
    items.push({
      text: 'The home page figures (contracts, on-time delivery, savings…) are samples, hidden until you confirm or change them.',
      tab: 'company',
      action: 'Check them in Company',
    });
  if (!profile.samActive)
    items.push({
      text: 'Your SAM registration is not marked active.',
      tab: 'company',
      action: 'Mark it active in Company',
      companyField: 'samActive',
    });
  return items;
}

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

/**
 * A short card of what the public profile still lacks, each item linking to the tab where it is
 * fixed, and of registrations about to expire. Nothing shows while loading or once all is done.
 */
export function SetupChecklist() {
  const profile = useQuery(companyProfileQuery);
  const contacts = useQuery(contactInfoQuery);
  const documents = useQuery(documentsQuery);
  const generated = useQuery(capabilityStatementQuery);
  if (!profile.data || !contacts.data || !documents.data || !generated.data) return null;
  const missing = missingItems(profile.data, contacts.data, documents.data, generated.data.inUse);
  const warnings = expiryWarnings(profile.data);
  if (missing.length === 0 && warnings.length === 0) return null;

  return (
    <section aria-labelledby="setup-checklist-title" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-ink">
      <h2 id="setup-checklist-title" className="text-base font-semibold">
        {missing.length > 0 ? 'Finish your public profile' : 'Registrations to renew'}
      </h2>
      {missing.length > 0 && (
        <ul className="mt-2 space-y-1">
          {missing.map((item) => (
            <li key={item.text}>
              {item.text}{' '}
              <a
                href={`#${item.tab}`}
                onClick={() => {
                  if (item.field) requestContactField(item.field);
                  if (item.companyField) requestCompanyField(item.companyField);
                }}
                className="font-semibold text-navy-800 underline underline-offset-2"
              >
                {item.action}
              </a>
            </li>
          ))}
        </ul>
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
