/** The periods the Visits tab offers, in days. */
export const VISIT_PERIODS = [7, 30, 90] as const;
export type VisitPeriod = (typeof VISIT_PERIODS)[number];

/** Raw page views are kept this many days, then rolled up into daily totals. */
export const RAW_VIEW_DAYS = 30;
/** Daily totals are kept this many months. */
export const TOTALS_MONTHS = 25;

/** The source of a visit that came with no referrer and no campaign. */
export const DIRECT = 'Direct';

export interface VisitDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  visitors: number;
  views: number;
}

export interface VisitRow {
  key: string;
  visitors: number;
  views: number;
}

export interface SourceRow {
  /** The campaign's utm_source, else the referring host, else `DIRECT`. */
  source: string;
  visitors: number;
  inquiries: number;
  /** Inquiries ÷ visitors, 0 to 1 (0 when there were no visitors). */
  conversion: number;
}

/** GET /api/admin/visits?days=N: what the Visits tab shows. */
export interface VisitsReport {
  /** False with ANALYTICS=off: nothing is counted, and the rest is empty. */
  counting: boolean;
  days: number;
  /** Every day of the period, oldest first (zeros included). */
  series: VisitDay[];
  totals: { visitors: number; views: number; inquiries: number; statementDownloads: number };
  pages: VisitRow[];
  sources: SourceRow[];
  campaigns: VisitRow[];
  devices: VisitRow[];
}

/** "Came from sam.gov, landed on /services/federal": an inquiry's visit, in words (null when it was not counted). */
export function cameFrom(visit: {
  visitLanding: string | null;
  visitReferrer: string | null;
  visitSource: string | null;
  visitCampaign: string | null;
}): string | null {
  if (!visit.visitLanding) return null;
  const from = visit.visitSource ?? visit.visitReferrer;
  const campaign = visit.visitCampaign ? ` (campaign ${visit.visitCampaign})` : '';
  return from
    ? `Came from ${from}${campaign}, landed on ${visit.visitLanding}`
    : `Came directly${campaign}, landed on ${visit.visitLanding}`;
}

/** What /privacy says of visits, from the same settings the counting reads (ANALYTICS, the retention periods). */
export function visitsPrivacyText(counting: boolean): string[] {
  if (!counting)
    return ['We do not count visits to this website: no analytics of any kind runs on it, and nothing is stored on your device.'];
  return [
    'We count visits on our own server, without cookies and without any outside analytics service or script. For each page view we record the day, the page, the name of the website that linked to it (never the whole address), any campaign tags in the link (utm_source, utm_medium, utm_campaign), whether the device is a phone, a tablet or a computer, and a visitor code.',
    'The visitor code is made from a random value that changes every day, together with your IP address and your browser’s name. The random value is deleted when its day is over, so the code cannot be traced back to you nor tie your visits on different days together. Your IP address and your browser’s name are not stored with the visit, and nothing is stored on your device.',
    'We do not count visits from browsers that send Global Privacy Control or Do Not Track, from search engine robots and other automated clients, or from our own staff while signed in.',
    'When you send our contact form, the first page you opened that day and the website or campaign that brought you are stored with your message, so we know which of our efforts reach the people who write to us.',
    `Page views are kept ${RAW_VIEW_DAYS} days; after that only daily totals remain, for ${TOTALS_MONTHS} months.`,
  ];
}
