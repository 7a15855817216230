/**
 * "Before you launch": what the back office's checklist and `GET /api/admin/launch-checklist`
 * list. Browser-safe types; the server computes the list (services/launch-checklist.ts).
 */

/** The public page a starter item shows on; the company's identity and contact details are their own groups. */
export type StarterPage = 'Every page' | 'Home' | 'About' | 'Services' | 'Federal capabilities' | 'Insights';
export type ChecklistGroup = StarterPage | 'Company identity' | 'Contact details';

/** The back office tab where an item is fixed. */
type ChecklistTab = 'company' | 'contacts' | 'documents' | 'homepage' | 'about' | 'services' | 'blog';

/** The record an item's link opens in its editor. */
export interface ChecklistRecord {
  kind: 'header' | 'block' | 'feature' | 'service' | 'insight';
  id: number;
  /** A block's or a card's section. */
  section?: string;
}

/** One starter item still on the public site. */
export interface StarterItem {
  key: string;
  page: StarterPage;
  text: string;
  tab: ChecklistTab;
  /** The field the link focuses (Company tab). */
  field?: string;
  record?: ChecklistRecord;
}

/** One line of the checklist: a starter item, or something the public profile lacks. */
export interface ChecklistItem {
  key: string;
  group: ChecklistGroup;
  text: string;
  tab: ChecklistTab;
  /** What the link says ("Edit it in About"). */
  action: string;
  field?: string;
  record?: ChecklistRecord;
  /** A starter item: the owner may keep it as it is ("Keep as mine"). */
  starter: boolean;
}

/** GET /api/admin/launch-checklist. */
export interface LaunchChecklist {
  launched: boolean;
  /** Items done of all the checklist's items (each starter item recorded counts once). */
  done: number;
  total: number;
  /** What is still to do, grouped in this order: identity, contact details, then page by page. */
  items: ChecklistItem[];
}

/** The groups in the order the checklist shows them. */
export const CHECKLIST_GROUPS: readonly ChecklistGroup[] = [
  'Company identity',
  'Contact details',
  'Every page',
  'Home',
  'About',
  'Services',
  'Federal capabilities',
  'Insights',
];

const TAB_NAMES: Record<ChecklistTab, string> = {
  company: 'Company',
  contacts: 'Contacts',
  documents: 'Documents',
  homepage: 'Homepage',
  about: 'About',
  services: 'Services',
  blog: 'Blog',
};

/** The action of a starter item's link. */
export function starterAction(item: Pick<StarterItem, 'tab' | 'record'>): string {
  return item.record?.kind === 'insight' ? 'Edit or delete it in Blog' : `Edit it in ${TAB_NAMES[item.tab]}`;
}
