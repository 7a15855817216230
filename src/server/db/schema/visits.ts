import { date, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

/*
 * Visits, counted on our own server without cookies (services/visits.ts): a visitor is a hash of
 * the day's random salt, the site, the address and the browser, never stored as such; the salt is
 * kept only for its day.
 */

/** The day's random salt, the same for every instance; deleted once its day is over. */
export const visitSalts = pgTable('visit_salt', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: text('salt').notNull(),
});

/**
 * Page views, kept 30 days, then rolled up into `visit_total` and deleted: a row per visitor,
 * page and landing details in one written batch, with how many views it stands for.
 */
export const pageViews = pgTable(
  'page_view',
  {
    id: serial('id').primaryKey(),
    /** The UTC day. */
    day: date('day', { mode: 'string' }).notNull(),
    path: text('path').notNull(),
    /** The referring site's host name (never the whole address); null for none or our own pages. */
    referrer: text('referrer'),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),
    /** 'phone', 'tablet' or 'desktop', from the browser's name of itself. */
    device: text('device').notNull(),
    /** First 8 bytes of SHA-256(day's salt ‖ site ‖ address ‖ browser), hex: the same visitor that day only. */
    visitor: text('visitor').notNull(),
    views: integer('views').notNull().default(1),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  // One index: by day (the roll-up, today's figures), then visitor (an inquiry's first view).
  (t) => [index('page_view_visitor_idx').on(t.day, t.visitor, t.id)],
);

/**
 * Daily totals of the page views rolled up: per dimension ('all', 'path', 'source', 'campaign',
 * 'device') and key, the views and the visitors (distinct that day). Kept 25 months.
 */
export const visitTotals = pgTable(
  'visit_total',
  {
    day: date('day', { mode: 'string' }).notNull(),
    dimension: text('dimension').notNull(),
    key: text('key').notNull(),
    views: integer('views').notNull(),
    visitors: integer('visitors').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.dimension, t.key] })],
);
