/**
 * Enumerations and limits of SPEC sections 3 and 9 (docs/specification.md), written once.
 * Each tuple feeds both `z.enum` (src/shared/schemas) and `pgEnum` (src/server/db/schema).
 */

/** Generic content-block sections stored in `content_blocks` (header and header-cta have their own tables). */
export const CONTENT_SECTIONS = [
  'intro',
  'home_cta',
  'about',
  'about_mission',
  'services_hero',
  'services_overview',
  'home_services',
] as const;
export type ContentSection = (typeof CONTENT_SECTIONS)[number];

/** Every section served by `GET /api/content/{section}/active`. */
export const PUBLIC_CONTENT_SECTIONS = [...CONTENT_SECTIONS, 'header', 'header-cta'] as const;
export type PublicContentSection = (typeof PUBLIC_CONTENT_SECTIONS)[number];

export const BUTTON_STYLES = ['primary', 'secondary', 'outline', 'ghost'] as const;

/** SPEC 9: the default icon of an about feature card. */
export const DEFAULT_ABOUT_ICON = 'fas fa-star';

/** Card lists: home feature cards, the about page's Why Choose Us, the federal page's Product Capabilities. */
export const FEATURE_SECTIONS = ['home', 'about', 'federal'] as const;
export type FeatureSection = (typeof FEATURE_SECTIONS)[number];

/** Service icon options (SPEC 3), value → label. */
export const SERVICE_ICONS = [
  'chart-bar',
  'users',
  'check-circle',
  'shield',
  'clock',
  'lightbulb',
  'code',
  'cog',
  'database',
  'wrench',
  'presentation-chart',
  'clipboard-list',
] as const;
export type ServiceIcon = (typeof SERVICE_ICONS)[number];
export const SERVICE_ICON_LABELS: Record<ServiceIcon, string> = {
  'chart-bar': 'Chart',
  users: 'Team',
  'check-circle': 'Check',
  shield: 'Shield',
  clock: 'Clock',
  lightbulb: 'Lightbulb',
  code: 'Code',
  cog: 'Cog',
  database: 'Database',
  wrench: 'Wrench',
  'presentation-chart': 'Presentation',
  'clipboard-list': 'Clipboard',
};
/** The federal page's product cards pick from the service icons and three of goods. */
export const PRODUCT_ICONS = [...SERVICE_ICONS, 'layers', 'truck', 'package'] as const;
export const PRODUCT_ICON_LABELS: Record<(typeof PRODUCT_ICONS)[number], string> = {
  ...SERVICE_ICON_LABELS,
  layers: 'Layers',
  truck: 'Truck',
  package: 'Package',
};

export const INSIGHT_CATEGORIES = ['industry_spotlights', 'market_analysis', 'case_studies', 'research', 'expert_advice'] as const;
export type InsightCategory = (typeof INSIGHT_CATEGORIES)[number];

export const DOCUMENT_CATEGORIES = ['capability', 'onboarding', 'brochure', 'case-study', 'whitepaper', 'presentation', 'other'] as const;
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];
export const DOCUMENT_CATEGORY_LABELS: Record<DocumentCategory, string> = {
  capability: 'Capability Statement',
  onboarding: 'OEM Onboarding Kit',
  brochure: 'Service Brochure',
  'case-study': 'Case Study',
  whitepaper: 'White Paper',
  presentation: 'Presentation',
  other: 'Other',
};

export const SUBMISSION_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];
/** How the back office (and the CSV export) words each status. */
export const SUBMISSION_STATUS_LABELS: Record<SubmissionStatus, string> = {
  pending: 'Pending',
  in_progress: 'In Progress',
  completed: 'Completed',
};

/** What a buyer says they are on the contact form ("I am…"), stored in contact_submission.buyer_type. */
export { BUYER_TYPES, BUYER_TYPE_LABELS, type BuyerType } from './contact-rules';

export const TEMPLATE_TYPES = ['contact_notification', 'contact_response'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

export const USER_ROLES = ['admin', 'user'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export const PUBLISH_JOB_STATUSES = ['queued', 'building', 'succeeded', 'failed'] as const;

export type PublishState = 'idle' | 'queued' | 'building' | 'failed';

export const UPLOAD_KINDS = ['image', 'document'] as const;

export const FONT_STACKS = [
  "'Segoe UI', Tahoma, Geneva, Verdana, sans-serif",
  "'Open Sans', Arial, sans-serif",
  'Arial, Helvetica, sans-serif',
  "Georgia, 'Times New Roman', serif",
  'Roboto, Arial, sans-serif',
] as const;

/** SPEC 9 limits. */
export const LIMITS = {
  /** Alternative text of an image. */
  altText: 250,
  headerScrollThreshold: 10,
  contactNameMin: 2,
  contactMessageMin: 10,
  contactSuccessMs: 5000,
  contactInfoStaleMs: 300_000,
  adminContactInfoStaleMs: 60_000,
  submissionPollMs: 30_000,
  /** The inbox search's shortest words: one letter matches nearly every inquiry and finds nothing. */
  submissionSearchMin: 2,
  documentsPlaceholderCards: 6,
  insightsSkeletonCards: 6,
  insightSummaryMin: 10,
  insightSummaryMax: 200,
  insightContentMin: 50,
  /** What a visitor may type in the insights search box. */
  insightSearchMax: 100,
  insightReadMinutesDefault: 5,
  insightListReadMin: 3,
  wordsPerMinuteChars: 200,
  excerptFallbackChars: 150,
  imageMaxBytes: 5 * 1024 * 1024,
  documentMaxBytes: 50 * 1024 * 1024,
  loginMin: 3,
  passwordMinSignIn: 6,
  /** OWASP ASVS level 2 (V2.1.1/V2.1.2), above the spec's 6 (docs/decisions/000-product-decisions.md). */
  passwordMin: 8,
  passwordMax: 128,
  codeLength: 6,
  toastLimit: 1,
  toastRemoveDelayMs: 1_000_000,
  /** Maximum lengths enforced on every stored text (not in the spec; server hardening). */
  shortText: 200,
  mediumText: 2000,
  longText: 100_000,
  url: 2048,
} as const;

/** Static marketing figures (SPEC 9). */
export const MARKETING_FIGURES = {
  activeContracts: '24',
  supplierPerformance: '92%',
  budgetUtilisation: '67%',
  onTimeDelivery: '98%',
  budgetManaged: '$2.4M+',
  costSavings: '15%',
  contractsCompleted: '500+',
} as const;

/** SPEC 2.15: three suggested stock backgrounds at 1920x1000. */
export const SUGGESTED_BACKGROUNDS = [
  'https://images.unsplash.com/photo-1486406146926-c627a92ad1ab?w=1920&h=1000&fit=crop',
  'https://images.unsplash.com/photo-1497366216548-37526070297c?w=1920&h=1000&fit=crop',
  'https://images.unsplash.com/photo-1451187580459-43490279c0fa?w=1920&h=1000&fit=crop',
] as const;
