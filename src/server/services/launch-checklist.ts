import { CHECKLIST_GROUPS, starterAction, type ChecklistItem, type LaunchChecklist } from '#shared/launch-checklist.ts';
import { usesGeneratedStatement } from '#shared/documents.ts';
import { isPlaceholderAddress, isPlaceholderEmail, isPlaceholderPhone } from '#shared/placeholders.ts';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contactInfo } from '../db/schema';
import { getCapabilityStatementSetting, getCompanyProfile, getSiteLaunch, listDocuments } from '../content/public-content';
import { liveStarterItems } from './starter-content';

/*
 * "Before you launch" (GET /api/admin/launch-checklist): what the public profile still lacks (the
 * identity checks: registrations, a way for buyers to write, a capability statement, real contact
 * details) and every starter item still on the site, with a count of what is done. The checklist is
 * never done while a starter item is live.
 */

/** The identity checks, each either done or an item to do. */
async function identityChecks(db: Db): Promise<{ key: string; todo?: Omit<ChecklistItem, 'key' | 'starter'> }[]> {
  const profile = await getCompanyProfile(db);
  const [active] = await db.select().from(contactInfo).where(eq(contactInfo.isActive, true)).limit(1);
  const documents = await listDocuments(db, { activeOnly: true });
  const { useGenerated } = await getCapabilityStatementSetting(db);
  const identity = 'Company identity' as const;
  const contact = 'Contact details' as const;
  const shownEmail = Boolean(active?.displayEmail && active.email && !isPlaceholderEmail(active.email));
  return [
    {
      key: 'identity:uei',
      todo: profile.uei
        ? undefined
        : {
            group: identity,
            text: 'Your UEI (SAM.gov Unique Entity ID) is missing.',
            tab: 'company',
            action: 'Add it in Company',
            field: 'uei',
          },
    },
    {
      key: 'identity:cageCode',
      todo: profile.cageCode
        ? undefined
        : { group: identity, text: 'Your CAGE code is missing.', tab: 'company', action: 'Add it in Company', field: 'cageCode' },
    },
    {
      key: 'identity:samActive',
      todo: profile.samActive
        ? undefined
        : {
            group: identity,
            text: 'Your SAM registration is not marked active.',
            tab: 'company',
            action: 'Mark it active in Company',
            field: 'samActive',
          },
    },
    {
      key: 'identity:buyerEmail',
      todo:
        (profile.procurementEmail && !isPlaceholderEmail(profile.procurementEmail)) || shownEmail
          ? undefined
          : {
              group: identity,
              text: 'No e-mail address for buyers: neither a procurement e-mail nor a displayed e-mail in the active contact details.',
              tab: 'company',
              action: 'Add a procurement e-mail in Company',
              field: 'procurementEmail',
            },
    },
    {
      key: 'identity:capabilityStatement',
      // The statement written from the site's data counts: the site offers it.
      todo:
        usesGeneratedStatement(documents, useGenerated) || documents.some((d) => d.category === 'capability')
          ? undefined
          : { group: identity, text: 'No active capability statement to download.', tab: 'documents', action: 'Upload one in Documents' },
    },
    {
      key: 'contact:email',
      todo:
        active && isPlaceholderEmail(active.email)
          ? {
              group: contact,
              text: `The contact e-mail ${active.email} is an example address: the website does not show it and inquiries are not sent to it.`,
              tab: 'contacts',
              action: 'Replace the e-mail in Contacts',
              field: 'email',
            }
          : undefined,
    },
    {
      key: 'contact:phone',
      todo:
        active && isPlaceholderPhone(active.phone)
          ? {
              group: contact,
              text: `The contact phone ${active.phone} is an example number: the website does not show it.`,
              tab: 'contacts',
              action: 'Replace the phone in Contacts',
              field: 'phone',
            }
          : undefined,
    },
    {
      key: 'contact:address',
      todo:
        active && isPlaceholderAddress(active.address)
          ? {
              group: contact,
              text: 'The contact address is the example address: the website does not show it.',
              tab: 'contacts',
              action: 'Replace the address in Contacts',
              field: 'address',
            }
          : undefined,
    },
  ];
}

/** The checklist, its items in group order. */
export async function launchChecklist(db: Db): Promise<LaunchChecklist> {
  const checks = await identityChecks(db);
  const { live, recorded } = await liveStarterItems(db);
  const items: ChecklistItem[] = [
    ...checks.flatMap(({ key, todo }) => (todo ? [{ key, starter: false, ...todo }] : [])),
    ...live.map(({ key, page, text, tab, field, record }) => ({
      key,
      group: page,
      text,
      tab,
      action: starterAction({ tab, record }),
      starter: true,
      ...(field ? { field } : {}),
      ...(record ? { record } : {}),
    })),
  ];
  const order = (item: ChecklistItem) => CHECKLIST_GROUPS.indexOf(item.group);
  items.sort((a, b) => order(a) - order(b));
  const total = checks.length + recorded;
  return { launched: (await getSiteLaunch(db)).launched, done: total - items.length, total, items };
}
