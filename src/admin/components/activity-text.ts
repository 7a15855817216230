import type { AuditEntry } from '../api/audit';
import { SUBMISSION_STATUS_LABELS } from '#shared/constants.ts';

/*
 * The Activity list in sentences ("Changed the home page title from “A” to “B”."), written from
 * the audit rows: the entity, the action, the changed fields before and after, and the row's name
 * (`subject`, recorded since the Activity list speaks in sentences; older rows fall back to the
 * name in their summary, then to "service no. 3").
 */

interface Kind {
  /** "service", or for a one-of-a-kind block its full name ("the home page header"). */
  noun: string;
  /** A block the site has one of: named without quotes or numbers. */
  single?: boolean;
  /** Field names that read better with this kind ("title" of the header is the home page title). */
  fields?: Record<string, string>;
  /** How a created row is told ("Uploaded" for files); "Added" otherwise. */
  created?: string;
}

const HEADER_FIELDS: Record<string, string> = {
  title: 'home page title',
  subtitle: 'home page subtitle',
  backgroundImage: 'home page background image',
  backgroundImageAlt: 'description of the home page background image',
  logoLight: 'light logo',
  logoDark: 'dark logo',
  boxHeading: 'home page box heading',
  boxContent: 'home page box text',
};

const KINDS: Record<string, Kind> = {
  header: { noun: 'the home page header', single: true, fields: HEADER_FIELDS },
  'header-cta': { noun: 'header button', fields: { buttonText: 'text', buttonLink: 'link', buttonStyle: 'style' } },
  'content:intro': { noun: 'the home page introduction', single: true },
  'content:home_cta': { noun: 'the home page call to action', single: true },
  'content:home_services': { noun: 'the home page services block', single: true },
  'content:about': { noun: 'the About page', single: true },
  'content:about_mission': { noun: 'the mission statement', single: true },
  'content:services_hero': { noun: 'the Services page introduction', single: true },
  'content:services_overview': { noun: 'the Services page closing section', single: true },
  'feature:home': { noun: 'home page feature card' },
  'feature:about': { noun: '“Why Choose Us” card' },
  feature: { noun: 'feature card' },
  service: { noun: 'service' },
  insight: { noun: 'insight' },
  document: { noun: 'document', created: 'Uploaded' },
  'email-template': { noun: 'e-mail template' },
  'saved-reply': { noun: 'saved reply' },
  'past-performance': { noun: 'past performance entry' },
  'contact-info': { noun: 'business contact details' },
  'contact-submission': { noun: 'inquiry' },
  'contact-response': { noun: 'reply' },
  upload: { noun: 'image', created: 'Uploaded' },
  company_profile: { noun: 'the company profile', single: true },
  'capability-statement': { noun: 'the capability statement choice', single: true, fields: { useGenerated: 'use generated statement' } },
  'site-launch': { noun: 'the site’s visibility to search engines', single: true, fields: { launched: 'launched' } },
  'business-time-zone': { noun: 'the business time zone', single: true, fields: { timeZone: 'time zone' } },
  'starter-content': { noun: 'starter item', fields: { starter: 'starter content' } },
};

const FIELD_NAMES: Record<string, string> = {
  content: 'text',
  imageSrc: 'image',
  imageUrl: 'image',
  imageAlt: 'image description',
  featuredImage: 'featured image',
  featuredImageAlt: 'featured image description',
  displayOrder: 'position',
  slug: 'web address',
  authorName: 'author',
  authorTitle: 'author’s title',
  readMinutes: 'reading time',
  detailedDescription: 'detailed description',
  businessHours: 'business hours',
  filePath: 'file',
  fileName: 'file name',
  headerBgColor: 'header colour',
  accentColor: 'accent colour',
  uei: 'UEI',
  cageCode: 'CAGE code',
  naicsCodes: 'NAICS codes',
  pscCodes: 'PSC codes',
  contractVehicles: 'contract vehicles',
  contactPersonEmail: 'point of contact’s e-mail',
  contactPersonPhone: 'point of contact’s phone',
  naicsCode: 'NAICS code',
  periodStart: 'start month',
  periodEnd: 'end month',
  showValue: 'value shown',
  figuresConfirmed: 'figures confirmed',
  founderName: 'founder’s name',
  founderTitle: 'founder’s title',
  founderPhoto: 'founder’s photo',
  founderPhotoAlt: 'description of the founder’s photo',
  founderStory: 'founder’s story',
};

/** Fields whose change another sentence already tells (publishing stamps the date). */
const IMPLIED = new Set(['publicationDate', 'id', 'updatedAt', 'createdAt', 'version', 'section']);
const NAME_KEYS = ['title', 'name', 'buttonText', 'fileName', 'originalName', 'shortName', 'email'];
/** A list row's own name: changing it is a rename. */
const RENAME_KEYS = new Set(['title', 'name', 'buttonText']);
const MAX_VALUE = 80;
const STATUS_LABELS: Record<string, string> = SUBMISSION_STATUS_LABELS;

type Row = Record<string, unknown>;

function kindOf(entry: AuditEntry): Kind {
  const known = KINDS[entry.entity];
  if (known) return known;
  // A deleted feature is recorded as 'feature'; an unknown content section by its name.
  const [base, section] = entry.entity.split(':');
  if (base === 'content' && section) return { noun: `the “${section.replace(/_/g, ' ')}” block`, single: true };
  return { noun: (base ?? entry.entity).replace(/[-_]/g, ' ') };
}

function words(key: string): string {
  return key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function fieldName(kind: Kind, key: string): string {
  return kind.fields?.[key] ?? FIELD_NAMES[key] ?? words(key);
}

function quote(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'nothing';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  const text =
    typeof value === 'string'
      ? value
      : Array.isArray(value)
        ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')
        : JSON.stringify(value);
  const flat = text.replace(/\s+/g, ' ').trim();
  return `“${flat.length > MAX_VALUE ? `${flat.slice(0, MAX_VALUE)}…` : flat}”`;
}

function isLong(value: unknown): boolean {
  return typeof value === 'object' && value !== null ? true : typeof value === 'string' && value.length > MAX_VALUE;
}

function nameIn(row: Row | null): string | null {
  for (const key of NAME_KEYS) {
    const value = row?.[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
}

/** "the service “Cloud”", "the inquiry from Jane Buyer", "service no. 3" (an old row with no name). */
function subjectPhrase(entry: AuditEntry, kind: Kind, name: string | null): string {
  if (kind.single) return kind.noun;
  if (entry.entity === 'contact-submission' || entry.entity === 'contact-response') {
    return name ? `the inquiry from ${name}` : `inquiry no. ${entry.entityId ?? '?'}`;
  }
  return name ? `the ${kind.noun} “${name}”` : `${kind.noun} no. ${entry.entityId ?? '?'}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One sentence per changed field of an update. */
function updateSentences(entry: AuditEntry, kind: Kind, before: Row, after: Row): string[] {
  const oldName = entry.subject ?? nameIn(before) ?? nameIn(after);
  const subject = subjectPhrase(entry, kind, oldName);
  const out: string[] = [];
  for (const key of Object.keys(after)) {
    if (IMPLIED.has(key)) continue;
    const [from, to] = [before[key], after[key]];
    if (key === 'isPublished') out.push(`${to ? 'Published' : 'Unpublished'} ${subject}.`);
    else if (key === 'isActive') out.push(`Made ${subject} ${to ? 'active' : 'inactive'}.`);
    else if (key === 'isVisible') out.push(`${to ? 'Showed' : 'Hid'} ${subject}.`);
    else if (key === 'isSpam') out.push(to ? `Moved ${subject} to Spam.` : `Moved ${subject} back to the inbox.`);
    else if (key === 'status' && entry.entity === 'contact-submission')
      out.push(`Marked ${subject} as ${STATUS_LABELS[String(to)] ?? String(to)}.`);
    else if (!kind.single && RENAME_KEYS.has(key)) out.push(`Renamed the ${kind.noun} ${quote(from)} to ${quote(to)}.`);
    else {
      const field = fieldName(kind, key);
      // A field named with its page ("home page title") needs no "of the home page header".
      const what = kind.fields?.[key] ? `the ${field}` : `the ${field} of ${subject}`;
      out.push(isLong(from) || isLong(to) ? `Changed ${what}.` : `Changed ${what} from ${quote(from)} to ${quote(to)}.`);
    }
  }
  return out.length > 0 ? out : [`Saved ${subject} without changes.`];
}

/** The sentences that tell one audit row, in plain words. */
export function activitySentences(entry: AuditEntry): string[] {
  const kind = kindOf(entry);
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  if (entry.entity === 'spam-retention') {
    return [`Deleted ${String(after.deleted)} messages of suspected spam older than ${String(after.olderThanDays)} days.`];
  }
  if (entry.action === 'update') return updateSentences(entry, kind, before, after);
  const name = entry.subject ?? nameIn(entry.action === 'delete' ? before : after);
  const subject = subjectPhrase(entry, kind, name);
  if (entry.entity === 'contact-response') {
    const message = typeof after.message === 'string' ? ` ${quote(after.message)}` : '';
    return [`Replied to ${subject}${message}.`];
  }
  if (entry.action === 'create') {
    if (kind.single) return [`Set up ${subject}.`];
    return [`${kind.created ?? 'Added'} ${subject}.`];
  }
  if (entry.action === 'delete') return [`Deleted ${subject}.`];
  return [`${capitalise(entry.action)} ${subject}.`];
}
