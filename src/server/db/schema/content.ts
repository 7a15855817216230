import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, version } from './columns';
import { buttonStyle, contentSection, featureSection } from './enums';

/** Generic content blocks (SPEC 3 "Content block"): intro, home_cta, about, about_mission, services_*, home_services. */
export const contentBlocks = pgTable(
  'content_block',
  {
    id: serial('id').primaryKey(),
    section: contentSection('section').notNull(),
    title: text('title').notNull().default(''),
    content: text('content').notNull().default(''),
    /** services_overview only. */
    buttonText: text('button_text'),
    backgroundImage: text('background_image'),
    imageUrl: text('image_url'),
    /** Alternative text of backgroundImage or imageUrl (whichever the section uses); empty means decorative. */
    imageAlt: text('image_alt'),
    isActive: boolean('is_active').notNull().default(true),
    ...version,
    ...timestamps,
  },
  (t) => [index('content_block_section_idx').on(t.section, t.isActive)],
);
export type ContentBlock = typeof contentBlocks.$inferSelect;

export const headerContent = pgTable('header_content', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  subtitle: text('subtitle').notNull(),
  backgroundImage: text('background_image').notNull(),
  /** Alternative text of the background image; empty means decorative. */
  backgroundImageAlt: text('background_image_alt'),
  logoLight: text('logo_light').notNull(),
  logoDark: text('logo_dark').notNull(),
  boxHeading: text('box_heading'),
  boxContent: text('box_content'),
  isActive: boolean('is_active').notNull().default(true),
  ...version,
  ...timestamps,
});
export type HeaderContent = typeof headerContent.$inferSelect;

/** Header call-to-action versions; at most one active (docs/decisions/000), enforced by a partial unique index. */
export const headerCta = pgTable(
  'header_cta',
  {
    id: serial('id').primaryKey(),
    buttonText: text('button_text').notNull(),
    buttonLink: text('button_link').notNull(),
    buttonStyle: buttonStyle('button_style').notNull().default('primary'),
    isVisible: boolean('is_visible').notNull().default(true),
    isActive: boolean('is_active').notNull().default(false),
    ...version,
    ...timestamps,
  },
  (t) => [
    uniqueIndex('header_cta_one_active')
      .on(t.isActive)
      .where(sql`${t.isActive}`),
  ],
);
export type HeaderCta = typeof headerCta.$inferSelect;

/** Feature cards for the home page (section 'home') and the about page's Why Choose Us (section 'about'). */
export const features = pgTable(
  'feature',
  {
    id: serial('id').primaryKey(),
    section: featureSection('section').notNull().default('home'),
    title: text('title').notNull(),
    description: text('description').notNull(),
    icon: text('icon').notNull(),
    displayOrder: integer('display_order').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    ...version,
    ...timestamps,
  },
  (t) => [
    check('feature_display_order_nonneg', sql`${t.displayOrder} >= 0`),
    index('feature_section_idx').on(t.section, t.isActive, t.displayOrder),
  ],
);
export type Feature = typeof features.$inferSelect;

export const services = pgTable(
  'service',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    icon: text('icon').notNull(),
    imageSrc: text('image_src'),
    imageAlt: text('image_alt'),
    detailedDescription: text('detailed_description'),
    isActive: boolean('is_active').notNull().default(true),
    displayOrder: integer('display_order').notNull().default(0),
    ...version,
    ...timestamps,
  },
  (t) => [check('service_display_order_nonneg', sql`${t.displayOrder} >= 0`)],
);
export type Service = typeof services.$inferSelect;
